// The one walk over an in-memory Json that check_json, serialize_json and canonical_json share.
// It enforces every rule of the boundary (depth, values, bytes, numbers, strings, keys) while it
// measures or writes, with an explicit stack, so a value built by C++ code of any depth or size is
// refused without deep recursion and without writing more than max_bytes. Internal to libcodemode.
#ifndef CODEMODE_CORE_JSON_JSON_WRITER_H_
#define CODEMODE_CORE_JSON_JSON_WRITER_H_

#include <cstddef>
#include <string>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::internal {

enum class KeyOrder {
  kStored,  // Json's own order (UTF-8 bytes): what JSON.stringify of the parsed value gives
  kUtf16,   // UTF-16 code units: RFC 8785
};

// Checks `value` against `limits` and returns its compact size in bytes. When `out` is not null,
// also appends the compact text to *out; on failure *out holds a partial text the caller discards.
Result<std::size_t> write_json(const Json& value, const JsonLimits& limits, KeyOrder order,
                               std::string* out);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_JSON_WRITER_H_
