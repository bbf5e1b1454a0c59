// Whole reads and writes on a file descriptor with read(2)/write(2), retrying short transfers and
// EINTR. No allocation, so they are safe on the worker's fatal paths.
#ifndef CODEMODE_WORKER_FD_IO_H_
#define CODEMODE_WORKER_FD_IO_H_

#include <cstddef>
#include <string_view>

namespace codemode::worker {

// Writes all of `bytes`; false on an error or a closed pipe.
bool write_all(int fd, std::string_view bytes);

// Fills all `size` bytes at `out`; false on an error or end of file first.
bool read_all(int fd, void* out, std::size_t size);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_FD_IO_H_
