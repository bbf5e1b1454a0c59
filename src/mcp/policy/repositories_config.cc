#include "mcp/policy/repositories_config.h"

#include <filesystem>
#include <utility>

#include "core/json/json_keys.h"

namespace codemode::mcp {
namespace {

Error repositories_error(std::string message) {
  return Error::invalid_config("mcp_config", std::move(message));
}

// An integer member within [minimum, maximum], or its default when absent.
Status read_integer(const Json& member, std::string_view key, std::int64_t minimum,
                    std::int64_t maximum, std::int64_t& out) {
  const auto found = member.find(key);
  if (found == member.end()) return {};
  if (!found->is_number_integer() || found->get<std::int64_t>() < minimum ||
      found->get<std::int64_t>() > maximum) {
    return repositories_error("repositories." + std::string(key) + " must be an integer from " +
                              std::to_string(minimum) + " to " + std::to_string(maximum) + ".");
  }
  out = found->get<std::int64_t>();
  return {};
}

}  // namespace

Result<RepositoriesConfig> parse_repositories_config(const Json& member,
                                                     const std::string& base_directory) {
  if (!member.is_object() ||
      !internal::only_keys(
          member, {"roots", "pages", "snapshots", "namespace", "walkDepth", "searchTimeMs"})) {
    return repositories_error(
        "repositories must be an object with only roots, pages, snapshots, namespace, walkDepth "
        "and searchTimeMs.");
  }
  RepositoriesConfig config;
  const auto roots = member.find("roots");
  if (roots == member.end() || !roots->is_object() || roots->empty()) {
    return repositories_error(
        "repositories.roots must be an object naming at least one directory.");
  }
  for (const auto& [name, path] : roots->items()) {
    if (!path.is_string() || path.get_ref<const std::string&>().empty()) {
      return repositories_error("repositories.roots." + name + " must be a path.");
    }
    std::error_code error;
    std::filesystem::path resolved =
        std::filesystem::absolute(std::filesystem::path(base_directory) / path.get<std::string>(),
                                  error)
            .lexically_normal();
    if (!resolved.has_filename() && resolved != resolved.root_path()) {
      resolved = resolved.parent_path();  // "dir/" -> "dir"
    }
    config.tools.roots.push_back({.name = name, .path = resolved.string()});
  }
  if (const auto space = member.find("namespace"); space != member.end()) {
    if (!space->is_string()) return repositories_error("repositories.namespace must be a string.");
    config.tools.tool_namespace = space->get<std::string>();
  }
  std::int64_t walk_depth = config.tools.walk_depth;
  std::int64_t search_ms = config.tools.search_time.count();
  for (Status status : {read_integer(member, "pages", 1, 16, config.pages),
                        read_integer(member, "snapshots", 1, 4, config.snapshots),
                        read_integer(member, "walkDepth", 1, 16, walk_depth),
                        read_integer(member, "searchTimeMs", 10, 60'000, search_ms)}) {
    if (!status.ok()) return std::move(status).error();
  }
  config.tools.walk_depth = static_cast<int>(walk_depth);
  config.tools.search_time = std::chrono::milliseconds(search_ms);
  // The options' own rules (a root that is not a directory, a bad name or namespace), checked now
  // so that a bad config fails at start.
  Result<RepositoryTools> tools = make_repository_tools(config.tools);
  if (!tools.ok()) return repositories_error("repositories." + tools.error().message);
  return config;
}

std::vector<QuotaClass> repository_quota_classes(const RepositoriesConfig& config) {
  const std::string prefix = config.tools.tool_namespace + ".";
  QuotaClass pages{.name = "pages", .cap = config.pages};
  for (std::string_view operation : kPageOperations) {
    pages.tools.push_back(prefix + std::string(operation));
  }
  QuotaClass snapshots{.name = "snapshots",
                       .cap = config.snapshots,
                       .tools = {prefix + std::string(kSnapshotOperation)}};
  return {std::move(pages), std::move(snapshots)};
}

}  // namespace codemode::mcp
