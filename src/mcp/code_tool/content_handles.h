// ContentStore: the image, audio and resource blocks a downstream tool answered during one
// invocation of the code tool, kept in the host while the program sees a small handle in each
// block's place. Base64 has no use inside a program and would pass its byte budgets; a handle the
// program returns anywhere in its result brings the block itself back to the client, beside the
// result's JSON. Nothing outlives the invocation: the store is destroyed with it, so a handle is
// never resolved by any other invocation.
//
// A handle, in place of the block in the output's `content` array:
//   {"$codemode": "content", "handle": "c1-5f0c93ab71e2", "type": "image",
//    "mimeType": "image/png", "bytes": 12345}
//   handle    "c<n>-<tag>": n counts the invocation's blocks from 1; tag is the invocation's own
//             (12 random hex digits), so a handle copied from another invocation never matches
//   type      the block's: image, audio, resource (embedded) or resource_link
//   mimeType  the block's (a resource's: its resource's), when it has one
//   bytes     what the block carries: base64 data or blob decoded, a resource's text in UTF-8
//             bytes; 0 for a resource link
//   uri       resources and resource links; `name` too for a link
//   text      an embedded text resource's text (text is readable data, unlike base64)
// Text blocks, and blocks of a type MCP does not define, stay as they are.
//
// Bounds, per invocation (McpPolicy::content_blocks and content_bytes, each block measured as
// compact JSON, as held): a tool output whose blocks would pass either is refused whole, nothing
// kept, LIMIT_EXCEEDED rule content_blocks_limit or content_bytes_limit.
//
// Thread-safety: every method may be called from any thread.
#ifndef CODEMODE_MCP_CODE_TOOL_CONTENT_HANDLES_H_
#define CODEMODE_MCP_CODE_TOOL_CONTENT_HANDLES_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::mcp {

// The key and value that mark a handle object.
inline constexpr char kHandleMarker[] = "$codemode";
inline constexpr char kHandleKind[] = "content";

// What a program's result returns (ContentStore::returned_in).
struct ReturnedContent {
  std::vector<Json> blocks;    // the blocks, in order of their handles' first appearance
  std::size_t unresolved = 0;  // handle objects that name no block of this invocation
};

class ContentStore {
 public:
  // `tag` distinguishes this invocation's handles ([0-9a-z]+).
  ContentStore(std::int64_t max_blocks, std::int64_t max_bytes, std::string tag);

  // A downstream tool's output: when it is MCP content (tool_results.h, content_blocks_of), each
  // image, audio, resource and resource_link block is kept and replaced by its handle; any other
  // output is returned as it is. Refused as above, with nothing kept.
  Result<Json> hold(Json output);

  // Forgets the blocks whose handles `output` (a value hold returned) holds, and gives their
  // bytes back: for an output the program will never see.
  void release(const Json& output);

  // Every handle object (an object whose "$codemode" is "content") anywhere in `result`: each
  // one naming a block held here adds it, once; any other (forged, altered, another
  // invocation's, released) is counted as unresolved.
  ReturnedContent returned_in(const Json& result) const;

  std::int64_t held_blocks() const;
  std::int64_t held_bytes() const;

 private:
  // The index of the block `handle` names, or -1. REQUIRES: mu_ held.
  std::int64_t index_of(const Json& handle) const;

  const std::int64_t max_blocks_;
  const std::int64_t max_bytes_;
  const std::string tag_;
  mutable std::mutex mu_;
  std::vector<Json> blocks_;         // by index; null once released
  std::vector<std::int64_t> sizes_;  // compact JSON bytes, parallel to blocks_; 0 once released
  std::int64_t held_blocks_ = 0;
  std::int64_t held_bytes_ = 0;
};

// The code tool's successful CallToolResult with what its result returns: each block appended to
// `content` after the result's text; when handles were unresolved, one text block saying how many
// (never quoting them). An error result, or one returning no handle, is returned as it is.
Json with_returned_content(Json call_result, const ContentStore& store);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CONTENT_HANDLES_H_
