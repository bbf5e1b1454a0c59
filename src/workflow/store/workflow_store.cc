// open_workflow_store: the store a URL names.
#include "codemode/workflow_store.h"

#include <string>

#include "workflow/store/postgres_store.h"
#include "workflow/store/sqlite_store.h"

namespace codemode {

Result<std::shared_ptr<WorkflowStore>> open_workflow_store(std::string_view url) {
  constexpr std::string_view kSqlite = "sqlite:";
  if (url.starts_with(kSqlite) && url.size() > kSqlite.size() &&
      url.find('\0') == std::string_view::npos) {
    return internal::open_sqlite_store(std::string(url.substr(kSqlite.size())));
  }
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return internal::open_postgres_store(std::string(url));
  }
  return Error::invalid_config("store_url",
                               "A workflow store is named sqlite:PATH or postgresql://...");
}

}  // namespace codemode
