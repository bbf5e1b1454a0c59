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
// tables.
Result<std::shared_ptr<WorkflowStore>> open_sqlite_store(const std::string& path);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_STORE_SQLITE_STORE_H_
