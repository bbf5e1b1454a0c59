// The stores the workflow suite runs against: a SQLite file in the test's scratch directory, and a
// database of its own on the PostgreSQL server that scripts/postgres starts for the suite (ctest's
// "postgres" fixture, which writes "host=... port=... user=..." to
// CODEMODE_TEST_POSTGRES_DIR/server). Each test gets a fresh database, dropped when it ends.
#ifndef CODEMODE_TESTS_WORKFLOW_STORE_FIXTURE_H_
#define CODEMODE_TESTS_WORKFLOW_STORE_FIXTURE_H_

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <libpq-fe.h>

#include <gtest/gtest.h>

#include "codemode/workflow_store.h"

#include "support/scratch_dir.h"

namespace codemode::testing {

enum class StoreKind { kSqlite, kPostgres };

inline std::string store_name(StoreKind kind) {
  return kind == StoreKind::kSqlite ? "sqlite" : "postgresql";
}

// One store location for one test: a file, or a database created now and dropped on destruction.
class TestStore {
 public:
  TestStore(StoreKind kind, const ScratchDir& scratch) : kind_(kind) {
    if (kind == StoreKind::kSqlite) {
      url_ = "sqlite:" + scratch.file("runs.db");
      return;
    }
    server_ = postgres_server();
    if (server_.empty()) return;  // available() is false
    database_ = "codemode_" + scratch.path().filename().string();
    for (char& c : database_) c = (c == '-') ? '_' : static_cast<char>(std::tolower(c));
    if (!admin("CREATE DATABASE " + database_)) return;
    // "host=H port=P user=U" -> postgresql://U@/DB?host=H&port=P
    std::map<std::string, std::string> fields;
    std::istringstream words(server_);
    for (std::string word; words >> word;) {
      fields[word.substr(0, word.find('='))] = word.substr(word.find('=') + 1);
    }
    url_ = "postgresql://" + fields["user"] + "@/" + database_ + "?host=" + fields["host"] +
           "&port=" + fields["port"];
  }
  ~TestStore() {
    if (!database_.empty()) admin("DROP DATABASE IF EXISTS " + database_ + " WITH (FORCE)");
  }
  TestStore(const TestStore&) = delete;
  TestStore& operator=(const TestStore&) = delete;

  // The server scripts/postgres started for this ctest run, or empty.
  static std::string postgres_server() {
    std::ifstream file(std::string(CODEMODE_TEST_POSTGRES_DIR) + "/server");
    std::string line;
    std::getline(file, line);
    return line;
  }

  // False only for PostgreSQL outside ctest (no server was started for this run).
  bool available() const { return !url_.empty() || kind_ == StoreKind::kSqlite; }
  const std::string& url() const { return url_; }
  // Runs `sql` in this test's PostgreSQL database.
  bool execute(const std::string& sql) const { return admin(sql, database_); }

 private:
  bool admin(const std::string& sql, const std::string& database = "postgres") const {
    PGconn* connection = PQconnectdb((server_ + " dbname=" + database).c_str());
    bool ok = PQstatus(connection) == CONNECTION_OK;
    if (ok) {
      PGresult* result = PQexec(connection, sql.c_str());
      ok = PQresultStatus(result) == PGRES_COMMAND_OK;
      PQclear(result);
    }
    PQfinish(connection);
    return ok;
  }

  StoreKind kind_;
  std::string server_;
  std::string database_;
  std::string url_;
};

// Skips a PostgreSQL test run outside ctest, saying why; fails one whose server is unreachable.
#define CODEMODE_REQUIRE_STORE(store)                                                           \
  if (!(store).available()) {                                                                   \
    if (::codemode::testing::TestStore::postgres_server().empty()) {                            \
      GTEST_SKIP() << "No PostgreSQL server for this run: ctest starts one (scripts/postgres)"; \
    }                                                                                           \
    FAIL() << "The PostgreSQL server that scripts/postgres started is unreachable.";            \
  }

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKFLOW_STORE_FIXTURE_H_
