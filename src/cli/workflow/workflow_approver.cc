#include "cli/workflow/workflow_approver.h"

#include <algorithm>
#include <array>
#include <utility>

#include <pwd.h>
#include <unistd.h>

namespace codemode::cli {

std::string current_login() {
  std::array<char, 4096> buffer{};
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr) {
    return {};
  }
  return found->pw_name;
}

VerifyPerson local_account_approver(std::vector<std::string> approvers, std::string project_id) {
  return [approvers = std::move(approvers),
          project_id = std::move(project_id)](std::string_view credential) -> Result<Person> {
    const std::string login = current_login();
    if (login.empty() || credential != login) {
      return Error::permission_denied("approver",
                                      "The approver is not the account running the command.");
    }
    const bool listed = std::find(approvers.begin(), approvers.end(), login) != approvers.end();
    return Person{.id = login, .project_id = project_id, .can_approve = listed};
  };
}

}  // namespace codemode::cli
