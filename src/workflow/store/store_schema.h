// The tables both SQL stores keep, by schema version. A store at an older version is migrated
// forward in one transaction when opened; one at a newer version is refused (store_schema).
#ifndef CODEMODE_WORKFLOW_STORE_STORE_SCHEMA_H_
#define CODEMODE_WORKFLOW_STORE_STORE_SCHEMA_H_

#include <array>
#include <string_view>

namespace codemode::internal {

// Migration i (0-based) takes a store from version i to i + 1. Plain SQL both SQLite and
// PostgreSQL accept.
inline constexpr std::array<std::string_view, 1> kStoreMigrations{
    R"sql(
CREATE TABLE codemode_workflow_definitions (
  digest TEXT PRIMARY KEY,
  document TEXT NOT NULL
);
CREATE TABLE codemode_workflow_runs (
  run_id TEXT PRIMARY KEY,
  seq BIGINT NOT NULL,
  scope_digest TEXT NOT NULL,
  workflow_digest TEXT NOT NULL,
  status TEXT NOT NULL,
  wake_at BIGINT,
  wake_policy TEXT,
  version BIGINT NOT NULL,
  document TEXT NOT NULL
);
CREATE INDEX codemode_workflow_runs_by_scope ON codemode_workflow_runs (scope_digest, seq);
CREATE INDEX codemode_workflow_runs_due ON codemode_workflow_runs (scope_digest, wake_at);
CREATE TABLE codemode_phase_audits (
  scope_digest TEXT NOT NULL,
  audit_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  definition_hash TEXT NOT NULL,
  version BIGINT NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY (scope_digest, audit_id)
);
)sql"};

inline constexpr int kStoreSchemaVersion = static_cast<int>(kStoreMigrations.size());

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_STORE_STORE_SCHEMA_H_
