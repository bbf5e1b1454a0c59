#include "mcp/code_tool/content_handles.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>
#include <utility>

#include "codemode/rules.h"

#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/invocation_budget.h"
#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {
namespace {

bool is_held(const Json& block) {
  for (const char* type : {"image", "audio", "resource", "resource_link"}) {
    if (field_equals(block, "type", type)) return true;
  }
  return false;
}

bool is_handle(const Json& value) {
  return value.is_object() && field_equals(value, kHandleMarker, kHandleKind);
}

// The bytes base64 `text` decodes to: six bits per character of its alphabet (padding and line
// breaks carry none). What a program needs is the size, not a decoder's verdict on the text.
std::int64_t decoded_size(const Json& text) {
  if (!text.is_string()) return 0;
  const std::string& chars = text.get_ref<const std::string&>();
  const auto data = std::count_if(chars.begin(), chars.end(), [](char c) {
    return c != '=' && c != '\n' && c != '\r' && c != ' ';
  });
  return static_cast<std::int64_t>(data) * 3 / 4;
}

// `key` of `object`, or null; never a copy (a blob may take megabytes).
const Json& member_of(const Json& object, const char* key) {
  static const Json kNull;
  const auto found = object.find(key);  // end() for anything but an object
  return found == object.end() ? kNull : *found;
}

// Copies `key` of `from` into `to` when it is a string.
void copy_string(const Json& from, const char* key, Json& to) {
  const Json& value = member_of(from, key);
  if (value.is_string()) to[key] = value;
}

// An embedded resource's handle: its resource's uri and mimeType, and its text when it has one.
void describe_resource(const Json& resource, Json& shown) {
  copy_string(resource, "uri", shown);
  copy_string(resource, "mimeType", shown);
  const Json& text = member_of(resource, "text");
  if (text.is_string()) {
    shown["bytes"] = static_cast<std::int64_t>(text.get_ref<const std::string&>().size());
    shown["text"] = text;
  } else {
    shown["bytes"] = decoded_size(member_of(resource, "blob"));
  }
}

Json handle_of(const Json& block, const std::string& handle) {
  Json shown{{kHandleMarker, kHandleKind}, {"handle", handle}, {"type", block.at("type")}};
  if (field_equals(block, "type", "resource")) {
    describe_resource(member_of(block, "resource"), shown);
  } else if (field_equals(block, "type", "resource_link")) {
    copy_string(block, "uri", shown);
    copy_string(block, "name", shown);
    copy_string(block, "mimeType", shown);
    shown["bytes"] = 0;
  } else {
    copy_string(block, "mimeType", shown);
    shown["bytes"] = decoded_size(member_of(block, "data"));
  }
  return shown;
}

// The number n of "c<n>-<tag>" when `handle` is one of `tag`'s; 0 otherwise.
std::size_t number_of(std::string_view handle, std::string_view tag) {
  const std::size_t dash = handle.find('-');
  if (handle.size() < 2 || handle[0] != 'c' || dash == std::string_view::npos ||
      handle.substr(dash + 1) != tag) {
    return 0;
  }
  std::size_t number = 0;
  const char* first = handle.data() + 1;
  const char* last = handle.data() + dash;
  const auto [end, error] = std::from_chars(first, last, number);
  return error == std::errc() && end == last && *first != '0' ? number : 0;
}

void find_handles(const Json& value, std::vector<const Json*>& found) {
  if (is_handle(value)) {
    found.push_back(&value);
  } else if (value.is_structured()) {
    for (const Json& member : value) find_handles(member, found);
  }
}

}  // namespace

ContentStore::ContentStore(std::int64_t max_blocks, std::int64_t max_bytes, std::string tag)
    : max_blocks_(max_blocks), max_bytes_(max_bytes), tag_(std::move(tag)) {}

Result<Json> ContentStore::hold(Json output) {
  if (!content_blocks_of(output)) return output;
  Json& content = output.at("content");
  std::vector<std::size_t> positions;
  std::vector<std::int64_t> sizes;
  std::int64_t bytes = 0;
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (!is_held(content[i])) continue;
    Result<std::size_t> size = check_json(content[i], {.max_bytes = kMeasureBytes});
    positions.push_back(i);
    sizes.push_back(size.ok() ? static_cast<std::int64_t>(*size) : max_bytes_ + 1);
    bytes += sizes.back();
  }
  if (positions.empty()) return output;
  std::lock_guard lock(mu_);
  if (held_blocks_ + static_cast<std::int64_t>(positions.size()) > max_blocks_) {
    return Error::limit_exceeded(rules::kContentBlocksLimit, "content-block budget exhausted");
  }
  if (held_bytes_ + bytes > max_bytes_) {
    return Error::limit_exceeded(rules::kContentBytesLimit, "content-byte budget exhausted");
  }
  for (std::size_t k = 0; k < positions.size(); ++k) {
    Json& block = content[positions[k]];
    Json handle = handle_of(block, "c" + std::to_string(blocks_.size() + 1) + "-" + tag_);
    blocks_.push_back(std::exchange(block, std::move(handle)));
    sizes_.push_back(sizes[k]);
  }
  held_blocks_ += static_cast<std::int64_t>(positions.size());
  held_bytes_ += bytes;
  return output;
}

void ContentStore::release(const Json& output) {
  std::vector<const Json*> handles;
  find_handles(output, handles);
  std::lock_guard lock(mu_);
  for (const Json* handle : handles) {
    const std::int64_t index = index_of(*handle);
    if (index < 0) continue;
    blocks_[index] = Json();
    held_bytes_ -= std::exchange(sizes_[index], 0);
    --held_blocks_;
  }
}

std::int64_t ContentStore::index_of(const Json& handle) const {
  const auto name = handle.find("handle");
  if (name == handle.end() || !name->is_string()) return -1;
  const std::size_t number = number_of(name->get_ref<const std::string&>(), tag_);
  if (number == 0 || number > blocks_.size() || blocks_[number - 1].is_null()) return -1;
  return static_cast<std::int64_t>(number - 1);
}

ReturnedContent ContentStore::returned_in(const Json& result) const {
  std::vector<const Json*> handles;
  find_handles(result, handles);
  ReturnedContent returned;
  std::set<std::int64_t> seen;
  std::lock_guard lock(mu_);
  for (const Json* handle : handles) {
    const std::int64_t index = index_of(*handle);
    if (index < 0) {
      ++returned.unresolved;
    } else if (seen.insert(index).second) {
      returned.blocks.push_back(blocks_[index]);
    }
  }
  return returned;
}

std::int64_t ContentStore::held_blocks() const {
  std::lock_guard lock(mu_);
  return held_blocks_;
}

std::int64_t ContentStore::held_bytes() const {
  std::lock_guard lock(mu_);
  return held_bytes_;
}

Json with_returned_content(Json call_result, const ContentStore& store) {
  if (field_is_true(call_result, "isError")) return call_result;
  const auto structured = call_result.find("structuredContent");
  if (structured == call_result.end() || !structured->is_object() ||
      !structured->contains("result")) {
    return call_result;
  }
  ReturnedContent returned = store.returned_in(structured->at("result"));
  Json& content = call_result["content"];
  for (Json& block : returned.blocks) content.push_back(std::move(block));
  if (returned.unresolved > 0) {
    content.push_back(
        {{"type", "text"},
         {"text", "codemode: " + std::to_string(returned.unresolved) +
                      " content handle(s) in the result name no image, audio or resource of "
                      "this invocation (a handle lives only in the invocation that made it); "
                      "nothing was attached for them."}});
  }
  return call_result;
}

}  // namespace codemode::mcp
