// SQLite behind WorkflowStore. One connection per store, guarded by a mutex; other processes are
// kept out by SQLite's own file locks (WAL mode, BEGIN IMMEDIATE for every write).
#include "workflow/store/sqlite_store.h"

#include <cerrno>
#include <mutex>
#include <utility>

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workflow/store/store_errors.h"
#include "workflow/store/store_schema.h"

namespace codemode::internal {
namespace {

struct ConnectionCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

struct StatementFinalizer {
  void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};

// One prepared statement with its parameters bound in order.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql) {
    sqlite3_stmt* raw = nullptr;
    ok_ = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr) ==
          SQLITE_OK;
    statement_.reset(raw);
  }
  Statement& bind(std::string_view text) {
    ok_ = ok_ && sqlite3_bind_text(statement_.get(), ++index_, text.data(),
                                   static_cast<int>(text.size()), SQLITE_TRANSIENT) == SQLITE_OK;
    return *this;
  }
  Statement& bind(std::int64_t number) {
    ok_ = ok_ && sqlite3_bind_int64(statement_.get(), ++index_, number) == SQLITE_OK;
    return *this;
  }
  Statement& bind(std::optional<std::int64_t> number) {
    if (number) return bind(*number);
    ok_ = ok_ && sqlite3_bind_null(statement_.get(), ++index_) == SQLITE_OK;
    return *this;
  }
  Statement& bind_nullable(const std::optional<std::string>& text) {
    if (text) return bind(std::string_view(*text));
    ok_ = ok_ && sqlite3_bind_null(statement_.get(), ++index_) == SQLITE_OK;
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE, or an error code.
  int step() { return ok_ ? sqlite3_step(statement_.get()) : SQLITE_ERROR; }
  std::string text(int column) const {
    const auto* bytes = sqlite3_column_text(statement_.get(), column);
    return bytes == nullptr
               ? std::string()
               : std::string(
                     reinterpret_cast<const char*>(bytes),
                     static_cast<std::size_t>(sqlite3_column_bytes(statement_.get(), column)));
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_.get(), column); }
  bool is_null(int column) const {
    return sqlite3_column_type(statement_.get(), column) == SQLITE_NULL;
  }

 private:
  std::unique_ptr<sqlite3_stmt, StatementFinalizer> statement_;
  bool ok_ = false;
  int index_ = 0;
};

// A write transaction: BEGIN IMMEDIATE now, ROLLBACK unless committed.
class WriteTransaction {
 public:
  explicit WriteTransaction(sqlite3* db) : db_(db) {
    begun_ = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
  }
  ~WriteTransaction() {
    if (begun_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  bool begun() const { return begun_; }
  bool commit() {
    if (!begun_) return false;
    begun_ = false;
    if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK) return true;
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return false;
  }

 private:
  sqlite3* db_;
  bool begun_ = false;
};

StoredRun run_from_row(const Statement& row) {
  return StoredRun{
      .run_id = row.text(0),
      .scope_digest = row.text(1),
      .workflow_digest = row.text(2),
      .status = row.text(3),
      .wake_at_millis = row.is_null(4) ? std::nullopt : std::optional<std::int64_t>(row.integer(4)),
      .wake_policy = row.is_null(5) ? std::nullopt : std::optional<std::string>(row.text(5)),
      .version = row.integer(6),
      .document = row.text(7)};
}

StoredAudit audit_from_row(const Statement& row) {
  return StoredAudit{.scope_digest = row.text(0),
                     .audit_id = row.text(1),
                     .idempotency_key = row.text(2),
                     .definition_hash = row.text(3),
                     .version = row.integer(4),
                     .state = row.text(5)};
}

constexpr std::string_view kRunColumns =
    "run_id, scope_digest, workflow_digest, status, wake_at, wake_policy, version, document";
constexpr std::string_view kAuditColumns =
    "scope_digest, audit_id, idempotency_key, definition_hash, version, state";

class SqliteStore final : public WorkflowStore {
 public:
  explicit SqliteStore(Connection db) : db_(std::move(db)) {}

  Status put_definition(std::string_view digest, std::string_view document) override {
    std::lock_guard lock(mutex_);
    WriteTransaction transaction(db_.get());
    if (!transaction.begun()) return store_io_error();
    Statement insert(db_.get(),
                     "INSERT INTO codemode_workflow_definitions (digest, document) VALUES (?, ?) "
                     "ON CONFLICT (digest) DO NOTHING");
    if (insert.bind(digest).bind(document).step() != SQLITE_DONE) return store_io_error();
    Statement read(db_.get(),
                   "SELECT document FROM codemode_workflow_definitions WHERE digest = ?");
    if (read.bind(digest).step() != SQLITE_ROW) return store_io_error();
    if (read.text(0) != document) {
      return Error::integrity_violation("workflow_definition",
                                        "A different workflow definition is stored under the "
                                        "same digest.");
    }
    return transaction.commit() ? Status() : store_io_error();
  }

  Result<std::optional<std::string>> get_definition(std::string_view digest) override {
    std::lock_guard lock(mutex_);
    Statement read(db_.get(),
                   "SELECT document FROM codemode_workflow_definitions WHERE digest = ?");
    int step = read.bind(digest).step();
    if (step == SQLITE_DONE) return std::optional<std::string>();
    if (step != SQLITE_ROW) return store_io_error();
    return std::optional<std::string>(read.text(0));
  }

  Status insert_run(const StoredRun& run) override {
    std::lock_guard lock(mutex_);
    WriteTransaction transaction(db_.get());
    if (!transaction.begun()) return store_io_error();
    Statement exists(db_.get(), "SELECT 1 FROM codemode_workflow_runs WHERE run_id = ?");
    int found = exists.bind(run.run_id).step();
    if (found == SQLITE_ROW) return Error::conflict("run_exists", "The run exists already.");
    if (found != SQLITE_DONE) return store_io_error();
    Statement insert(
        db_.get(),
        "INSERT INTO codemode_workflow_runs (run_id, seq, scope_digest, workflow_digest, status, "
        "wake_at, wake_policy, version, document) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 "
        "FROM codemode_workflow_runs), ?, ?, ?, ?, ?, 1, ?)");
    insert.bind(run.run_id)
        .bind(run.scope_digest)
        .bind(run.workflow_digest)
        .bind(run.status)
        .bind(run.wake_at_millis)
        .bind_nullable(run.wake_policy)
        .bind(run.document);
    if (insert.step() != SQLITE_DONE) return store_io_error();
    return transaction.commit() ? Status() : store_io_error();
  }

  Result<std::optional<StoredRun>> load_run(std::string_view run_id) override {
    std::lock_guard lock(mutex_);
    Statement read(db_.get(), "SELECT " + std::string(kRunColumns) +
                                  " FROM codemode_workflow_runs WHERE run_id = ?");
    int step = read.bind(run_id).step();
    if (step == SQLITE_DONE) return std::optional<StoredRun>();
    if (step != SQLITE_ROW) return store_io_error();
    return std::optional<StoredRun>(run_from_row(read));
  }

  Result<bool> replace_run(const StoredRun& run, std::int64_t expected_version) override {
    std::lock_guard lock(mutex_);
    WriteTransaction transaction(db_.get());
    if (!transaction.begun()) return store_io_error();
    Statement update(db_.get(),
                     "UPDATE codemode_workflow_runs SET status = ?, wake_at = ?, wake_policy = ?, "
                     "version = ?, document = ? WHERE run_id = ? AND version = ?");
    update.bind(run.status)
        .bind(run.wake_at_millis)
        .bind_nullable(run.wake_policy)
        .bind(expected_version + 1)
        .bind(run.document)
        .bind(run.run_id)
        .bind(expected_version);
    if (update.step() != SQLITE_DONE) return store_io_error();
    bool swapped = sqlite3_changes(db_.get()) == 1;
    if (!transaction.commit()) return store_io_error();
    return swapped;
  }

  Result<std::vector<std::string>> list_runs(std::string_view scope_digest,
                                             std::size_t limit) override {
    std::lock_guard lock(mutex_);
    Statement query(db_.get(),
                    "SELECT run_id FROM codemode_workflow_runs WHERE scope_digest = ? "
                    "ORDER BY seq DESC, run_id LIMIT ?");
    query.bind(scope_digest).bind(clamp(limit));
    return ids(query);
  }

  Result<std::vector<std::string>> due_runs(std::string_view scope_digest,
                                            std::string_view policy_hash, std::int64_t now_millis,
                                            std::size_t limit) override {
    std::lock_guard lock(mutex_);
    Statement query(db_.get(),
                    "SELECT run_id FROM codemode_workflow_runs WHERE scope_digest = ? AND "
                    "wake_at IS NOT NULL AND wake_at <= ? AND (wake_policy IS NULL OR "
                    "wake_policy = ?) ORDER BY wake_at, run_id LIMIT ?");
    query.bind(scope_digest).bind(now_millis).bind(policy_hash).bind(clamp(limit));
    return ids(query);
  }

  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    std::lock_guard lock(mutex_);
    WriteTransaction transaction(db_.get());
    if (!transaction.begun()) return store_io_error();
    Statement insert(db_.get(), "INSERT INTO codemode_phase_audits (" + std::string(kAuditColumns) +
                                    ") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    insert.bind(audit.scope_digest)
        .bind(audit.audit_id)
        .bind(audit.idempotency_key)
        .bind(audit.definition_hash)
        .bind(audit.version)
        .bind(audit.state);
    if (insert.step() != SQLITE_DONE) return store_io_error();
    Statement read(db_.get(), "SELECT " + std::string(kAuditColumns) +
                                  " FROM codemode_phase_audits WHERE idempotency_key = ?");
    if (read.bind(audit.idempotency_key).step() != SQLITE_ROW) return store_io_error();
    StoredAudit stored = audit_from_row(read);
    if (!transaction.commit()) return store_io_error();
    return stored;
  }

  Result<std::optional<StoredAudit>> read_audit(std::string_view scope_digest,
                                                std::string_view audit_id) override {
    std::lock_guard lock(mutex_);
    Statement read(db_.get(),
                   "SELECT " + std::string(kAuditColumns) +
                       " FROM codemode_phase_audits WHERE scope_digest = ? AND audit_id = ?");
    int step = read.bind(scope_digest).bind(audit_id).step();
    if (step == SQLITE_DONE) return std::optional<StoredAudit>();
    if (step != SQLITE_ROW) return store_io_error();
    return std::optional<StoredAudit>(audit_from_row(read));
  }

 private:
  static std::int64_t clamp(std::size_t limit) {
    return static_cast<std::int64_t>(std::min<std::size_t>(limit, 1'000'000));
  }

  // The first column of every row `query` returns. REQUIRES: mutex_ held.
  static Result<std::vector<std::string>> ids(Statement& query) {
    std::vector<std::string> found;
    for (int step = query.step(); step != SQLITE_DONE; step = query.step()) {
      if (step != SQLITE_ROW) return store_io_error();
      found.push_back(query.text(0));
    }
    return found;
  }

  std::mutex mutex_;
  const Connection db_;
};

// Creates the file with mode 0600 unless it exists, so runs are not readable by other users.
bool create_private_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) return ::close(fd) == 0;
  return errno == EEXIST;
}

// Whoever can write the store can approve phases (docs/security.md), so the file, and SQLite's
// files beside it, must be writable by their owner only. A mode that lets the group or others
// only read is the owner's choice (docs/workflows.md). SQLite makes its -wal, -shm and -journal
// files with the database file's mode, but one left from before a chmod keeps its own.
Status check_owner_only_writable(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    struct stat info {};
    if (::stat((path + suffix).c_str(), &info) != 0) {
      if (errno == ENOENT && *suffix != '\0') continue;
      return store_open_error();
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) return store_permissions_error();
  }
  return {};
}

bool execute(sqlite3* db, const std::string& sql) {
  return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

Status migrate(sqlite3* db) {
  WriteTransaction transaction(db);
  if (!transaction.begun() ||
      !execute(db, "CREATE TABLE IF NOT EXISTS codemode_schema (version INTEGER NOT NULL)")) {
    return store_open_error();
  }
  Statement read(db, "SELECT version FROM codemode_schema");
  int step = read.step();
  std::int64_t version = 0;
  if (step == SQLITE_ROW) {
    version = read.integer(0);
  } else if (step != SQLITE_DONE || !execute(db, "INSERT INTO codemode_schema VALUES (0)")) {
    return store_open_error();
  }
  if (version > kStoreSchemaVersion || version < 0) {
    return store_newer_schema_error();
  }
  for (auto i = static_cast<std::size_t>(version); i < kStoreMigrations.size(); ++i) {
    if (!execute(db, std::string(kStoreMigrations[i]))) return store_open_error();
  }
  if (!execute(db, "UPDATE codemode_schema SET version = " + std::to_string(kStoreSchemaVersion)) ||
      !transaction.commit()) {
    return store_open_error();
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<WorkflowStore>> open_sqlite_store(const std::string& path) {
  if (path.empty() || !create_private_file(path)) return store_open_error();
  if (Status mode = check_owner_only_writable(path); !mode.ok()) return std::move(mode).error();
  sqlite3* raw = nullptr;
  int opened =
      sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr);
  Connection db(raw);
  if (opened != SQLITE_OK) return store_open_error();
  sqlite3_busy_timeout(db.get(), 10'000);
  // WAL: readers never wait for the writer. synchronous=FULL: a commit is on disk when it returns,
  // so a receipt once committed survives a power cut, not only a killed process.
  if (!execute(db.get(), "PRAGMA journal_mode = WAL") ||
      !execute(db.get(), "PRAGMA synchronous = FULL") ||
      !execute(db.get(), "PRAGMA foreign_keys = ON")) {
    return store_open_error();
  }
  if (Status migrated = migrate(db.get()); !migrated.ok()) return std::move(migrated).error();
  return std::shared_ptr<WorkflowStore>(std::make_shared<SqliteStore>(std::move(db)));
}

}  // namespace codemode::internal
