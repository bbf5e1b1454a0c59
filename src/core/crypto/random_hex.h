// Random names from the kernel's CSPRNG (getrandom), as lower-case hex: session ids, run ids,
// lease owners, the protocol adapter's per-execution sandbox names.
#ifndef CODEMODE_CORE_CRYPTO_RANDOM_HEX_H_
#define CODEMODE_CORE_CRYPTO_RANDOM_HEX_H_

#include <cstddef>
#include <string>

namespace codemode::internal {

// `bytes` random bytes (at most 64) as 2 * bytes hex digits; "" when the kernel gives none (no
// getrandom, or more than 64 bytes asked), so a caller can refuse rather than use a weak name.
std::string random_hex(std::size_t bytes);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_CRYPTO_RANDOM_HEX_H_
