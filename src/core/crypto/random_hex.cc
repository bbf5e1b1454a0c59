#include "core/crypto/random_hex.h"

#include <array>
#include <cerrno>

#include <sys/random.h>

namespace codemode::internal {

std::string random_hex(std::size_t bytes) {
  std::array<unsigned char, 64> buffer{};
  if (bytes > buffer.size()) return {};
  std::size_t filled = 0;
  while (filled < bytes) {
    const ssize_t got = getrandom(buffer.data() + filled, bytes - filled, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return {};
    filled += static_cast<std::size_t>(got);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    hex += kHex[buffer[i] >> 4];
    hex += kHex[buffer[i] & 0xf];
  }
  return hex;
}

}  // namespace codemode::internal
