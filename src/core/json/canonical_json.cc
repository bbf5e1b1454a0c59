// canonical_json: RFC 8785 (JSON Canonicalization Scheme) text of a bounded, plain Json.
//
// JCS is JSON.stringify's number and string forms with object keys sorted by UTF-16 code units;
// the shared writer produces exactly that with KeyOrder::kUtf16, so digests over this text match
// those a JavaScript JCS implementation computes.
#include <string>

#include "codemode/json.h"

#include "core/json/json_writer.h"

namespace codemode {

Result<std::string> canonical_json(const Json& value, const JsonLimits& limits) {
  std::string text;
  Result<std::size_t> written =
      internal::write_json(value, limits, internal::KeyOrder::kUtf16, &text);
  if (!written.ok()) return std::move(written).error();
  return text;
}

}  // namespace codemode
