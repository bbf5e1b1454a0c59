// PostgreSQL behind WorkflowStore, through libpq. One connection per store, guarded by a mutex;
// other processes are kept apart by PostgreSQL's transactions and the versioned swap.
#include "workflow/store/postgres_store.h"

#include <charconv>
#include <mutex>
#include <utility>
#include <vector>

#include <libpq-fe.h>

#include "workflow/store/store_errors.h"
#include "workflow/store/store_schema.h"

namespace codemode::internal {
namespace {

struct ConnectionCloser {
  void operator()(PGconn* connection) const { PQfinish(connection); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;

struct ResultClearer {
  void operator()(PGresult* result) const { PQclear(result); }
};
using QueryResult = std::unique_ptr<PGresult, ResultClearer>;

// Text parameters of one statement; a null optional is SQL NULL.
class Parameters {
 public:
  Parameters& add(std::string_view text) {
    values_.emplace_back(text);
    return *this;
  }
  Parameters& add(std::int64_t number) { return add(std::to_string(number)); }
  Parameters& add_nullable(const std::optional<std::string>& text) {
    values_.push_back(text);
    return *this;
  }
  Parameters& add(std::optional<std::int64_t> number) {
    values_.emplace_back(number ? std::optional<std::string>(std::to_string(*number))
                                : std::nullopt);
    return *this;
  }
  std::vector<const char*> pointers() const {
    std::vector<const char*> pointers;
    for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
    return pointers;
  }
  int size() const { return static_cast<int>(values_.size()); }

 private:
  std::vector<std::optional<std::string>> values_;
};

QueryResult run(PGconn* connection, const char* sql, const Parameters& parameters = {}) {
  std::vector<const char*> values = parameters.pointers();
  return QueryResult(PQexecParams(connection, sql, parameters.size(), nullptr, values.data(),
                                  nullptr, nullptr, 0));
}

bool succeeded(const QueryResult& result) {
  ExecStatusType status = PQresultStatus(result.get());
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

std::string cell(const QueryResult& result, int row, int column) {
  return std::string(PQgetvalue(result.get(), row, column),
                     static_cast<std::size_t>(PQgetlength(result.get(), row, column)));
}

// -1 for a cell that is not an integer (never the case for the BIGINT columns read here; any
// negative version or time is refused by the readers above the store).
std::int64_t integer_cell(const QueryResult& result, int row, int column) {
  const std::string text = cell(result, row, column);
  std::int64_t number = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  return error == std::errc() && end == text.data() + text.size() ? number : -1;
}

// A transaction: BEGIN now, ROLLBACK unless committed.
class Transaction {
 public:
  explicit Transaction(PGconn* connection) : connection_(connection) {
    begun_ = succeeded(run(connection_, "BEGIN"));
  }
  ~Transaction() {
    if (begun_) run(connection_, "ROLLBACK");
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  bool begun() const { return begun_; }
  bool commit() {
    if (!begun_) return false;
    begun_ = false;
    return succeeded(run(connection_, "COMMIT"));
  }

 private:
  PGconn* connection_;
  bool begun_ = false;
};

constexpr const char* kRunColumns =
    "run_id, scope_digest, workflow_digest, status, wake_at, wake_policy, version, document";
constexpr const char* kAuditColumns =
    "scope_digest, audit_id, idempotency_key, definition_hash, version, state";

StoredAudit audit_from_row(const QueryResult& result) {
  return StoredAudit{.scope_digest = cell(result, 0, 0),
                     .audit_id = cell(result, 0, 1),
                     .idempotency_key = cell(result, 0, 2),
                     .definition_hash = cell(result, 0, 3),
                     .version = integer_cell(result, 0, 4),
                     .state = cell(result, 0, 5)};
}

class PostgresStore final : public WorkflowStore {
 public:
  explicit PostgresStore(Connection connection) : connection_(std::move(connection)) {}

  Status put_definition(std::string_view digest, std::string_view document) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    QueryResult inserted = run(db,
                               "INSERT INTO codemode_workflow_definitions (digest, document) "
                               "VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING",
                               Parameters().add(digest).add(document));
    QueryResult read =
        run(db, "SELECT document FROM codemode_workflow_definitions WHERE digest = $1",
            Parameters().add(digest));
    if (!succeeded(inserted) || !succeeded(read) || PQntuples(read.get()) != 1)
      return store_io_error();
    if (cell(read, 0, 0) != document) {
      return Error::integrity_violation(
          "workflow_definition",
          "A different workflow definition is stored under the same digest.");
    }
    return {};
  }

  Result<std::optional<std::string>> get_definition(std::string_view digest) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    QueryResult read =
        run(db, "SELECT document FROM codemode_workflow_definitions WHERE digest = $1",
            Parameters().add(digest));
    if (!succeeded(read)) return store_io_error();
    if (PQntuples(read.get()) == 0) return std::optional<std::string>();
    return std::optional<std::string>(cell(read, 0, 0));
  }

  Status insert_run(const StoredRun& stored) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    QueryResult inserted = run(
        db,
        "INSERT INTO codemode_workflow_runs (run_id, seq, scope_digest, workflow_digest, status, "
        "wake_at, wake_policy, version, document) VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 "
        "FROM codemode_workflow_runs), $2, $3, $4, $5, $6, 1, $7) ON CONFLICT (run_id) DO NOTHING",
        Parameters()
            .add(stored.run_id)
            .add(stored.scope_digest)
            .add(stored.workflow_digest)
            .add(stored.status)
            .add(stored.wake_at_millis)
            .add_nullable(stored.wake_policy)
            .add(stored.document));
    if (!succeeded(inserted)) return store_io_error();
    if (std::string_view(PQcmdTuples(inserted.get())) != "1") {
      return Error::conflict("run_exists", "The run exists already.");
    }
    return {};
  }

  Result<std::optional<StoredRun>> load_run(std::string_view run_id) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    const std::string sql =
        std::string("SELECT ") + kRunColumns + " FROM codemode_workflow_runs WHERE run_id = $1";
    QueryResult read = run(db, sql.c_str(), Parameters().add(run_id));
    if (!succeeded(read)) return store_io_error();
    if (PQntuples(read.get()) == 0) return std::optional<StoredRun>();
    return std::optional<StoredRun>(
        StoredRun{.run_id = cell(read, 0, 0),
                  .scope_digest = cell(read, 0, 1),
                  .workflow_digest = cell(read, 0, 2),
                  .status = cell(read, 0, 3),
                  .wake_at_millis = PQgetisnull(read.get(), 0, 4) != 0
                                        ? std::nullopt
                                        : std::optional<std::int64_t>(integer_cell(read, 0, 4)),
                  .wake_policy = PQgetisnull(read.get(), 0, 5) != 0
                                     ? std::nullopt
                                     : std::optional<std::string>(cell(read, 0, 5)),
                  .version = integer_cell(read, 0, 6),
                  .document = cell(read, 0, 7)});
  }

  Result<bool> replace_run(const StoredRun& stored, std::int64_t expected_version) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    QueryResult updated = run(db,
                              "UPDATE codemode_workflow_runs SET status = $1, wake_at = $2, "
                              "wake_policy = $3, version = $4, document = $5 WHERE run_id = $6 "
                              "AND version = $7",
                              Parameters()
                                  .add(stored.status)
                                  .add(stored.wake_at_millis)
                                  .add_nullable(stored.wake_policy)
                                  .add(expected_version + 1)
                                  .add(stored.document)
                                  .add(stored.run_id)
                                  .add(expected_version));
    if (!succeeded(updated)) return store_io_error();
    return std::string_view(PQcmdTuples(updated.get())) == "1";
  }

  Result<std::vector<std::string>> list_runs(std::string_view scope_digest,
                                             std::size_t limit) override {
    return ids(
        "SELECT run_id FROM codemode_workflow_runs WHERE scope_digest = $1 "
        "ORDER BY seq DESC, run_id LIMIT $2",
        Parameters().add(scope_digest).add(clamp(limit)));
  }

  Result<std::vector<std::string>> due_runs(std::string_view scope_digest,
                                            std::string_view policy_hash, std::int64_t now_millis,
                                            std::size_t limit) override {
    // SKIP LOCKED: a run another runtime is swapping right now is left to it.
    return ids(
        "SELECT run_id FROM codemode_workflow_runs WHERE scope_digest = $1 AND "
        "wake_at IS NOT NULL AND wake_at <= $2 AND (wake_policy IS NULL OR wake_policy = $3) "
        "ORDER BY wake_at, run_id LIMIT $4 FOR UPDATE SKIP LOCKED",
        Parameters().add(scope_digest).add(now_millis).add(policy_hash).add(clamp(limit)));
  }

  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    Transaction transaction(db);
    if (!transaction.begun()) return store_io_error();
    const std::string insert_sql = std::string("INSERT INTO codemode_phase_audits (") +
                                   kAuditColumns +
                                   ") VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";
    QueryResult inserted = run(db, insert_sql.c_str(),
                               Parameters()
                                   .add(audit.scope_digest)
                                   .add(audit.audit_id)
                                   .add(audit.idempotency_key)
                                   .add(audit.definition_hash)
                                   .add(audit.version)
                                   .add(audit.state));
    const std::string read_sql = std::string("SELECT ") + kAuditColumns +
                                 " FROM codemode_phase_audits WHERE idempotency_key = $1";
    QueryResult read = run(db, read_sql.c_str(), Parameters().add(audit.idempotency_key));
    if (!succeeded(inserted) || !succeeded(read) || PQntuples(read.get()) != 1)
      return store_io_error();
    StoredAudit stored = audit_from_row(read);
    if (!transaction.commit()) return store_io_error();
    return stored;
  }

  Result<std::optional<StoredAudit>> read_audit(std::string_view scope_digest,
                                                std::string_view audit_id) override {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    const std::string sql = std::string("SELECT ") + kAuditColumns +
                            " FROM codemode_phase_audits WHERE scope_digest = $1 AND audit_id = $2";
    QueryResult read = run(db, sql.c_str(), Parameters().add(scope_digest).add(audit_id));
    if (!succeeded(read)) return store_io_error();
    if (PQntuples(read.get()) == 0) return std::optional<StoredAudit>();
    return std::optional<StoredAudit>(audit_from_row(read));
  }

 private:
  static std::int64_t clamp(std::size_t limit) {
    return static_cast<std::int64_t>(std::min<std::size_t>(limit, 1'000'000));
  }

  // The connection, re-established once if the server dropped it.
  PGconn* connected() {
    if (PQstatus(connection_.get()) != CONNECTION_OK) PQreset(connection_.get());
    return PQstatus(connection_.get()) == CONNECTION_OK ? connection_.get() : nullptr;
  }

  Result<std::vector<std::string>> ids(const char* sql, const Parameters& parameters) {
    std::lock_guard lock(mutex_);
    PGconn* db = connected();
    if (db == nullptr) return store_io_error();
    QueryResult read = run(db, sql, parameters);
    if (!succeeded(read)) return store_io_error();
    std::vector<std::string> found;
    for (int row = 0; row < PQntuples(read.get()); ++row) found.push_back(cell(read, row, 0));
    return found;
  }

  std::mutex mutex_;
  const Connection connection_;
};

void ignore_notice(void*, const char*) {}

Status migrate(PGconn* db) {
  Transaction transaction(db);
  // One migrator at a time, whichever process opens the store first.
  if (!transaction.begun() ||
      !succeeded(run(db, "SELECT pg_advisory_xact_lock(7370656475726162)")) ||
      !succeeded(
          run(db, "CREATE TABLE IF NOT EXISTS codemode_schema (version INTEGER NOT NULL)"))) {
    return store_open_error();
  }
  QueryResult read = run(db, "SELECT version FROM codemode_schema");
  if (!succeeded(read)) return store_open_error();
  std::int64_t version = 0;
  if (PQntuples(read.get()) == 0) {
    if (!succeeded(run(db, "INSERT INTO codemode_schema VALUES (0)"))) return store_open_error();
  } else {
    version = integer_cell(read, 0, 0);
  }
  if (version > kStoreSchemaVersion || version < 0) {
    return store_newer_schema_error();
  }
  for (auto i = static_cast<std::size_t>(version); i < kStoreMigrations.size(); ++i) {
    if (!succeeded(QueryResult(PQexec(db, std::string(kStoreMigrations[i]).c_str())))) {
      return store_open_error();
    }
  }
  const std::string set_version =
      "UPDATE codemode_schema SET version = " + std::to_string(kStoreSchemaVersion);
  if (!succeeded(run(db, set_version.c_str())) || !transaction.commit()) return store_open_error();
  return {};
}

}  // namespace

Result<std::shared_ptr<WorkflowStore>> open_postgres_store(const std::string& url) {
  Connection connection(PQconnectdb(url.c_str()));
  if (!connection || PQstatus(connection.get()) != CONNECTION_OK) return store_open_error();
  PQsetNoticeProcessor(connection.get(), ignore_notice, nullptr);
  if (Status migrated = migrate(connection.get()); !migrated.ok()) {
    return std::move(migrated).error();
  }
  return std::shared_ptr<WorkflowStore>(std::make_shared<PostgresStore>(std::move(connection)));
}

}  // namespace codemode::internal
