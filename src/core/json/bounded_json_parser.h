// The SAX handler behind parse_json: nlohmann's parser is iterative and calls this handler once per
// token; the handler builds the Json and refuses the document at the first token that breaks a
// rule, so a deep or huge text stops early and never reaches the C++ stack or the heap in full.
// Internal to libcodemode.
#ifndef CODEMODE_CORE_JSON_BOUNDED_JSON_PARSER_H_
#define CODEMODE_CORE_JSON_BOUNDED_JSON_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::internal {

class BoundedJsonBuilder {
 public:
  explicit BoundedJsonBuilder(const JsonLimits& limits) : limits_(limits) {}

  // The nlohmann SAX interface (see nlohmann::json_sax). Returning false stops the parser.
  bool null();
  bool boolean(bool value);
  bool number_integer(std::int64_t value);
  bool number_unsigned(std::uint64_t value);
  bool number_float(double value, const std::string& text);
  bool string(std::string& value);
  bool binary(Json::binary_t& value);
  bool start_object(std::size_t elements);
  bool key(std::string& key);
  bool end_object();
  bool start_array(std::size_t elements);
  bool end_array();
  bool parse_error(std::size_t position, const std::string& last_token,
                   const Json::exception& error);

  // The document, or the first refusal. Call once, after the parser returned.
  Result<Json> finish(bool parsed) &&;

 private:
  bool add(Json value, std::size_t text_bytes);
  bool open(Json empty);
  bool close();
  bool reserve(std::size_t bytes);
  bool refuse(Error error);

  const JsonLimits& limits_;
  Json root_;
  std::vector<Json*> open_;         // containers not yet closed, innermost last
  Json* pending_member_ = nullptr;  // the object member whose key was read last
  std::optional<Error> error_;
  std::size_t bytes_ = 0;
  std::size_t values_ = 0;
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_BOUNDED_JSON_PARSER_H_
