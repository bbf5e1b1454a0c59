// The one place codemode includes valijson. valijson aborts the process on a bad schema unless
// VALIJSON_USE_EXCEPTIONS is set before its headers are read, so every use goes through this
// header (one definition for the whole library keeps the templates ODR-consistent).
//
// Known limitation: valijson evaluates "pattern" and "patternProperties" with std::regex, whose
// libstdc++ matcher recurses once per character for many patterns; a long string against such a
// pattern can exhaust the native stack (measured: "^(a|b)*$" against 100,000 characters crashes
// with an 8 MiB stack). Values are bounded by the JSON boundary, but a string of up to max_bytes
// still reaches the matcher. Not solved here; see docs/json-and-schemas.md.
#ifndef CODEMODE_TOOLS_VALIJSON_H_
#define CODEMODE_TOOLS_VALIJSON_H_

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#endif  // CODEMODE_TOOLS_VALIJSON_H_
