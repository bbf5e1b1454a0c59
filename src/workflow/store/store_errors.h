// The errors both SQL stores report. Messages name what failed, never the URL or the path (either
// may hold a secret or a host path).
#ifndef CODEMODE_WORKFLOW_STORE_STORE_ERRORS_H_
#define CODEMODE_WORKFLOW_STORE_STORE_ERRORS_H_

#include "codemode/error.h"

namespace codemode::internal {

inline Error store_io_error() {
  return Error::storage_unavailable("store_io", "The workflow store could not be read or written.");
}

inline Error store_open_error() {
  return Error::storage_unavailable("store_open", "The workflow store could not be opened.");
}

inline Error store_permissions_error() {
  return Error::storage_unavailable(
      "store_permissions",
      "The workflow store's file (or its -wal, -shm or -journal file) is writable by its group or "
      "by others, and whoever can write the store can approve phases; make it writable by its "
      "owner only (chmod 600).");
}

inline Error store_newer_schema_error() {
  return Error::storage_unavailable(
      "store_schema", "The workflow store was written by a newer codemode; it is not changed.");
}

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_STORE_STORE_ERRORS_H_
