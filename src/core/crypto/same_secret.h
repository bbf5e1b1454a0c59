// Comparing a secret a client sent (a bearer token, a session or CSRF token) with the expected one
// without stopping at the first difference, so timing does not reveal a prefix. The length may
// show; the tokens compared are random and of a fixed length.
#ifndef CODEMODE_CORE_CRYPTO_SAME_SECRET_H_
#define CODEMODE_CORE_CRYPTO_SAME_SECRET_H_

#include <string_view>

namespace codemode::internal {

inline bool same_secret(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < given.size(); ++i) {
    difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
  }
  return difference == 0;
}

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_CRYPTO_SAME_SECRET_H_
