// sha256_hex: SHA-256 through OpenSSL 3's EVP interface (the one-shot EVP_Digest).
#include <string>
#include <string_view>

#include <openssl/evp.h>

#include "codemode/json.h"

namespace codemode {

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest fails only when OpenSSL cannot allocate or has no SHA-256 provider; the empty
  // string returned then never equals a digest, so comparisons fail closed.
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    return {};
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace codemode
