// The WorkflowStore contract (workflow_store.h), the same on both stores: versioned swaps,
// create-once audits, definitions that cannot be replaced, schema versions, and open errors that
// never echo the URL.
#include "codemode/workflow_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "support/scratch_dir.h"
#include "workflow/store_fixture.h"

namespace codemode::testing {
namespace {

const std::string kScope(64, 's');
const std::string kPolicy(64, 'p');

StoredRun run_record(const std::string& id, std::optional<std::int64_t> wake_at,
                     std::optional<std::string> wake_policy = std::nullopt) {
  return StoredRun{.run_id = id,
                   .scope_digest = kScope,
                   .workflow_digest = std::string(64, 'w'),
                   .status = "waiting",
                   .wake_at_millis = wake_at,
                   .wake_policy = std::move(wake_policy),
                   .version = 1,
                   .document = R"({"any":"text"})"};
}

class WorkflowStoreTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(scratch_.ok());
    location_ = std::make_unique<TestStore>(GetParam(), scratch_);
    CODEMODE_REQUIRE_STORE(*location_);
    store_ = open_workflow_store(location_->url()).value();
  }

  ScratchDir scratch_;
  std::unique_ptr<TestStore> location_;
  std::shared_ptr<WorkflowStore> store_;
};

TEST_P(WorkflowStoreTest, SwapsARunOnlyAtTheVersionItWasReadAt) {
  const std::string id(64, '1');
  ASSERT_TRUE(store_->insert_run(run_record(id, std::nullopt)).ok());
  EXPECT_EQ(store_->insert_run(run_record(id, std::nullopt)).error().code, ErrorCode::kConflict);
  StoredRun next = run_record(id, 5);
  next.status = "running";
  next.document = R"({"changed":true})";
  EXPECT_TRUE(store_->replace_run(next, 1).value());
  EXPECT_FALSE(store_->replace_run(next, 1).value()) << "a second swap at the same version";
  const StoredRun stored = store_->load_run(id).value().value();
  EXPECT_EQ(stored.version, 2);
  EXPECT_EQ(stored.status, "running");
  EXPECT_EQ(stored.wake_at_millis, 5);
  EXPECT_EQ(stored.document, next.document);
  EXPECT_FALSE(store_->load_run(std::string(64, '9')).value().has_value());
}

TEST_P(WorkflowStoreTest, ListsRunsNewestFirstAndDueRunsSoonestFirst) {
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'a'), 30)).ok());
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'b'), std::nullopt)).ok());
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'c'), 10)).ok());
  EXPECT_EQ(
      store_->list_runs(kScope, 10).value(),
      (std::vector<std::string>{std::string(64, 'c'), std::string(64, 'b'), std::string(64, 'a')}));
  EXPECT_EQ(store_->list_runs(kScope, 1).value().size(), 1u);
  EXPECT_TRUE(store_->list_runs(std::string(64, 'o'), 10).value().empty());
  EXPECT_EQ(store_->due_runs(kScope, kPolicy, 20, 10).value(),
            (std::vector<std::string>{std::string(64, 'c')}));
  EXPECT_EQ(store_->due_runs(kScope, kPolicy, 30, 10).value(),
            (std::vector<std::string>{std::string(64, 'c'), std::string(64, 'a')}));
  // Work bound to another policy is not this runtime's to do.
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'd'), 0, std::string(64, 'q'))).ok());
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'e'), 0, kPolicy)).ok());
  EXPECT_EQ(store_->due_runs(kScope, kPolicy, 5, 10).value(),
            (std::vector<std::string>{std::string(64, 'e')}));
}

TEST_P(WorkflowStoreTest, AuditsAreCreatedOnceAndDefinitionsNeverReplaced) {
  const StoredAudit audit{.scope_digest = kScope,
                          .audit_id = std::string(64, 'i'),
                          .idempotency_key = std::string(64, 'i'),
                          .definition_hash = std::string(64, 'h'),
                          .version = 1,
                          .state = R"({"first":true})"};
  EXPECT_EQ(store_->create_audit(audit).value(), audit);
  StoredAudit second = audit;
  second.state = R"({"second":true})";
  EXPECT_EQ(store_->create_audit(second).value(), audit) << "the stored record, unchanged";
  EXPECT_EQ(store_->read_audit(kScope, audit.audit_id).value(), audit);
  EXPECT_FALSE(store_->read_audit(std::string(64, 'o'), audit.audit_id).value().has_value());

  ASSERT_TRUE(store_->put_definition(std::string(64, 'd'), "one").ok());
  EXPECT_TRUE(store_->put_definition(std::string(64, 'd'), "one").ok());
  EXPECT_EQ(store_->put_definition(std::string(64, 'd'), "two").error().code,
            ErrorCode::kIntegrityViolation);
  EXPECT_EQ(store_->get_definition(std::string(64, 'd')).value(), "one");
}

TEST_P(WorkflowStoreTest, ReopensItsOwnSchemaAndRefusesANewerOne) {
  store_.reset();
  store_ = open_workflow_store(location_->url()).value();
  ASSERT_TRUE(store_->insert_run(run_record(std::string(64, 'a'), std::nullopt)).ok());
  store_.reset();
  if (GetParam() == StoreKind::kSqlite) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(scratch_.file("runs.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db, "UPDATE codemode_schema SET version = 99", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
  } else {
    ASSERT_TRUE(location_->execute("UPDATE codemode_schema SET version = 99"));
  }
  Result<std::shared_ptr<WorkflowStore>> newer = open_workflow_store(location_->url());
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().code, ErrorCode::kStorageUnavailable);
  EXPECT_EQ(newer.error().rule, "store_schema");
}

INSTANTIATE_TEST_SUITE_P(Stores, WorkflowStoreTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         [](const auto& info) { return store_name(info.param); });

TEST(OpenWorkflowStoreTest, RefusesUnknownUrlsAndNeverEchoesThem) {
  for (const char* url : {"", "sqlite:", "mysql://db/x", "file:/tmp/x", "runs.db"}) {
    Result<std::shared_ptr<WorkflowStore>> store = open_workflow_store(url);
    ASSERT_FALSE(store.ok()) << url;
    EXPECT_EQ(store.error().rule, "store_url") << url;
  }
  const std::string secret = "postgresql://user:hunter2@127.0.0.1:1/db?connect_timeout=2";
  Result<std::shared_ptr<WorkflowStore>> unreachable = open_workflow_store(secret);
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(unreachable.error().code, ErrorCode::kStorageUnavailable);
  EXPECT_EQ(unreachable.error().message.find("hunter2"), std::string::npos);
  EXPECT_EQ(unreachable.error().message.find("127.0.0.1"), std::string::npos);
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  Result<std::shared_ptr<WorkflowStore>> missing_directory =
      open_workflow_store("sqlite:" + scratch.file("no/such/dir.db"));
  ASSERT_FALSE(missing_directory.ok());
  EXPECT_EQ(missing_directory.error().rule, "store_open");
  EXPECT_EQ(missing_directory.error().message.find(scratch.path().string()), std::string::npos);
}

TEST(OpenWorkflowStoreTest, CreatesTheSqliteFileReadableByItsOwnerOnly) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  ASSERT_TRUE(open_workflow_store("sqlite:" + scratch.file("runs.db")).ok());
  struct stat info {};
  ASSERT_EQ(::stat(scratch.file("runs.db").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

// Whoever can write the store can approve phases (docs/security.md), so a store file that its
// group or others may write is refused, whatever made it so; one they may only read is used
// (docs/workflows.md says why).
TEST(OpenWorkflowStoreTest, RefusesASqliteFileOthersCanWrite) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::string file = scratch.file("runs.db");
  ASSERT_TRUE(open_workflow_store("sqlite:" + file).ok());
  for (const mode_t mode : {0666, 0620, 0602}) {
    ASSERT_EQ(::chmod(file.c_str(), mode), 0);
    Result<std::shared_ptr<WorkflowStore>> store = open_workflow_store("sqlite:" + file);
    ASSERT_FALSE(store.ok()) << std::oct << mode;
    EXPECT_EQ(store.error().code, ErrorCode::kStorageUnavailable);
    EXPECT_EQ(store.error().rule, "store_permissions");
    EXPECT_EQ(store.error().message.find(scratch.path().string()), std::string::npos);
  }
  for (const mode_t mode : {0600, 0640, 0644}) {
    ASSERT_EQ(::chmod(file.c_str(), mode), 0);
    EXPECT_TRUE(open_workflow_store("sqlite:" + file).ok()) << std::oct << mode;
  }
}

TEST(OpenWorkflowStoreTest, RefusesASqliteLogOthersCanWrite) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::string file = scratch.file("runs.db");
  // Open, so the write-ahead log and its shared-memory index exist beside the file.
  Result<std::shared_ptr<WorkflowStore>> open = open_workflow_store("sqlite:" + file);
  ASSERT_TRUE(open.ok());
  for (const char* side : {"-wal", "-shm"}) {
    ASSERT_EQ(::chmod((file + side).c_str(), 0666), 0) << side;
    Result<std::shared_ptr<WorkflowStore>> store = open_workflow_store("sqlite:" + file);
    ASSERT_FALSE(store.ok()) << side;
    EXPECT_EQ(store.error().rule, "store_permissions") << side;
    ASSERT_EQ(::chmod((file + side).c_str(), 0600), 0) << side;
  }
  EXPECT_TRUE(open_workflow_store("sqlite:" + file).ok());
}

}  // namespace
}  // namespace codemode::testing
