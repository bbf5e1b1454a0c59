#include "workflow/definition/hash_material.h"

#include "codemode/program.h"

namespace codemode::internal {

Result<std::string> hash_material_digest(std::string_view domain, const Json& value) {
  Result<std::string> canonical = canonical_json(value, JsonLimits{.max_bytes = 16u << 20});
  if (!canonical.ok()) {
    return Error::invalid_config("hash_material", "A digest's material is not bounded JSON.");
  }
  std::string material(domain);
  material += '\n';
  material += *canonical;
  std::string digest = sha256_hex(material);
  if (digest.empty()) {
    return Error::storage_unavailable("hash_material", "A digest could not be computed.");
  }
  return digest;
}

bool is_hex_digest(std::string_view text) { return is_code_program_digest(text); }

}  // namespace codemode::internal
