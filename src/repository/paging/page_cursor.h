// Continuation cursors: opaque to a program, authenticated with a key only this process holds.
//
// A cursor is base64url(payload) "." base64url(HMAC-SHA256(key, payload)), where the payload is
// {"v":1,"tool","scope","args","offset"}: the operation, digests of the snapshot (or repository)
// it pages and of the request's other arguments, and where the next page starts. A cursor that is
// not one of ours (forged, cut, edited) is cursor_invalid; one of ours replayed against another
// operation, scope or arguments is cursor_mismatch. The key is random per RepositoryTools, so a
// cursor does not outlive the server that issued it.
//
// Thread-safety: immutable after construction.
#ifndef CODEMODE_REPOSITORY_PAGING_PAGE_CURSOR_H_
#define CODEMODE_REPOSITORY_PAGING_PAGE_CURSOR_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::repository {

// The longest cursor accepted or issued.
inline constexpr std::size_t kMaxCursorBytes = 384;

class CursorKey {
 public:
  CursorKey();  // a fresh random key

  std::string seal(std::string_view tool, std::string_view scope, std::string_view arguments,
                   const Json& offset) const;
  // The offset a cursor carries, when it is ours and was issued for exactly this request.
  Result<Json> open(std::string_view cursor, std::string_view tool, std::string_view scope,
                    std::string_view arguments) const;

 private:
  std::string tag(std::string_view payload) const;

  std::array<unsigned char, 32> key_{};
};

// The digest that binds a cursor to a request: SHA-256 of the canonical JSON of `input` without
// its paging members (cursor, max_bytes, max_items, max_results, max_lines, format).
std::string request_digest(const Json& input);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_PAGING_PAGE_CURSOR_H_
