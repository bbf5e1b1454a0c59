// Whether this is a sanitizer build (CODEMODE_SANITIZE=ON in CMake, which defines
// CODEMODE_SANITIZER_BUILD): the one switch for the few places where the worker behaves
// differently under AddressSanitizer (docs/security.md, "Sanitizer builds"). Every file that tests
// the macro includes this header first, so a build that defines it without -fsanitize=address (a
// release build with a stray -D) stops here instead of shipping a worker with sanitizer-only
// allowances.
#ifndef CODEMODE_CORE_SANITIZER_BUILD_H_
#define CODEMODE_CORE_SANITIZER_BUILD_H_

#if defined(__SANITIZE_ADDRESS__)
#define CODEMODE_INTERNAL_ASAN_ON 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CODEMODE_INTERNAL_ASAN_ON 1
#endif
#endif

#if defined(CODEMODE_SANITIZER_BUILD) && !defined(CODEMODE_INTERNAL_ASAN_ON)
#error "CODEMODE_SANITIZER_BUILD is only for builds with -fsanitize=address (CODEMODE_SANITIZE=ON)"
#endif

namespace codemode::internal {

#ifdef CODEMODE_SANITIZER_BUILD
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_SANITIZER_BUILD_H_
