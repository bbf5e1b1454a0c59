// Sanitizer builds only: the worker's operator new and delete. AddressSanitizer's operator new
// ends the process with a report when an allocation fails, where the standard's (and a release
// build's) throws std::bad_alloc. The worker relies on that throw: once RLIMIT_DATA is reached,
// Worker::run catches it and reports memory_limit. So in a sanitizer build the worker allocates
// through ASan's malloc (which returns NULL: allocator_may_return_null=1, sanitizer_runtime.cc)
// and throws itself; ASan still checks every block. new and delete are replaced together, so no
// block is freed by another family's function. The over-aligned forms stay ASan's: nothing in
// the worker allocates over-aligned types.
#include "core/sanitizer_build.h"

#ifdef CODEMODE_SANITIZER_BUILD

#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

void* allocate(std::size_t size) noexcept { return std::malloc(size == 0 ? 1 : size); }

void* allocate_or_throw(std::size_t size) {
  void* block = allocate(size);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

}  // namespace

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }

void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t) noexcept { std::free(block); }

#endif  // CODEMODE_SANITIZER_BUILD
