#include "worker/self_hosted_cache.h"

#include <array>
#include <cstdio>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process/unique_fd.h"
#include "worker/build_id.h"
#include "worker/fd_io.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

using internal::UniqueFd;

constexpr std::string_view kMagic = "codemode self-hosted cache 1\n";
// A stencil is about 280 KB; anything far larger is not ours.
constexpr off_t kMaxCacheBytes = 64 << 20;

std::string header() { return std::string(kMagic) + process_build_id() + "\n"; }

}  // namespace

std::string default_self_hosted_cache_path() {
  std::array<char, 4096> path{};
  const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return {};
  return std::string(path.data(), static_cast<std::size_t>(length)) + ".selfhosted";
}

std::vector<std::uint8_t> read_self_hosted_cache(const std::string& path) {
  if (path.empty()) return {};
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat info {};
  if (!fd.valid() || ::fstat(fd.get(), &info) != 0 || info.st_size > kMaxCacheBytes) return {};
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(info.st_size));
  if (!read_all(fd.get(), bytes.data(), bytes.size())) return {};
  const std::string expected = header();
  if (bytes.size() <= expected.size() ||
      std::string_view(reinterpret_cast<const char*>(bytes.data()), expected.size()) != expected) {
    return {};  // stale or foreign: parse the self-hosted code instead
  }
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(expected.size()));
  return bytes;
}

Status write_self_hosted_cache_file(const std::string& path,
                                    std::span<const std::uint8_t> stencil) {
  const std::string temporary = path + ".tmp";
  UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  const std::string head = header();
  const std::string_view body(reinterpret_cast<const char*>(stencil.data()), stencil.size());
  if (!fd.valid() || !write_all(fd.get(), head) || !write_all(fd.get(), body) ||
      ::fsync(fd.get()) != 0) {
    return worker_error("self_hosted_cache", "The self-hosted cache could not be written.");
  }
  fd.reset();
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    return worker_error("self_hosted_cache", "The self-hosted cache could not be renamed.");
  }
  return {};
}

}  // namespace codemode::worker
