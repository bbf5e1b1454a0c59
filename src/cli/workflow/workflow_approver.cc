#include "cli/workflow/workflow_approver.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <utility>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process/unique_fd.h"

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

Result<std::string> read_approver_key(const std::string& path) {
  const Error refused = Error::invalid_config(
      "approver_key", "--key must name a private key file readable by its owner only (chmod 600).");
  internal::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  struct stat info {};
  if (!fd.valid() || ::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
      (info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return refused;
  }
  constexpr std::size_t kMaxKeyBytes = 16u << 10;
  std::string pem;
  std::array<char, 4096> chunk{};
  for (;;) {
    const ssize_t got = ::read(fd.get(), chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 || pem.size() + static_cast<std::size_t>(got) > kMaxKeyBytes) return refused;
    if (got == 0) return pem;
    pem.append(chunk.data(), static_cast<std::size_t>(got));
  }
}

}  // namespace codemode::cli
