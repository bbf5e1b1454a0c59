// The SQLite workflow store: one file, write-ahead log, no server. Several processes may share
// the file (each write is a BEGIN IMMEDIATE transaction; a busy file is waited on for up to 10 s).
#ifndef CODEMODE_WORKFLOW_STORE_SQLITE_STORE_H_
#define CODEMODE_WORKFLOW_STORE_SQLITE_STORE_H_

#include <memory>
#include <string>

#include "codemode/error.h"
#include "codemode/workflow_store.h"

namespace codemode::internal {

// Opens the file at `path` (created with mode 0600 when missing) and creates or migrates its
// tables. STORAGE_UNAVAILABLE, rule "store_permissions", when the file or its -wal, -shm or
// -journal file is writable by its group or by others; rule "store_open" when it cannot be opened.
Result<std::shared_ptr<WorkflowStore>> open_sqlite_store(const std::string& path);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_STORE_SQLITE_STORE_H_
