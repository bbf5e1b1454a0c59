// The PostgreSQL workflow store: for several runtime processes, on several machines, sharing
// runs. Every write is one transaction; a run's document is swapped with a versioned UPDATE, so a
// phase is claimed by exactly one runtime; due runs are listed with FOR UPDATE SKIP LOCKED so
// workers polling together do not queue behind each other.
#ifndef CODEMODE_WORKFLOW_STORE_POSTGRES_STORE_H_
#define CODEMODE_WORKFLOW_STORE_POSTGRES_STORE_H_

#include <memory>
#include <string>

#include "codemode/error.h"
#include "codemode/workflow_store.h"

namespace codemode::internal {

// Connects with the libpq URI `url` and creates or migrates the tables.
Result<std::shared_ptr<WorkflowStore>> open_postgres_store(const std::string& url);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_STORE_POSTGRES_STORE_H_
