// The real worker launched through bubblewrap (Debian's bwrap, which scripts/install-deps
// installs), as the protocol adapter's tests and the sandbox choice tests run it: every namespace
// new, the host's root read-only, a private /tmp, the worker's own directory bound back in (a
// build may live under /tmp), every capability dropped, and the worker ended when bwrap dies.
#ifndef CODEMODE_TESTS_SUPPORT_BUBBLEWRAP_H_
#define CODEMODE_TESTS_SUPPORT_BUBBLEWRAP_H_

#include <filesystem>
#include <string>
#include <vector>

namespace codemode::testing {

inline constexpr const char* kBubblewrap = "/usr/bin/bwrap";

inline std::vector<std::string> bubblewrap_launch(const std::string& worker) {
  const std::string directory = std::filesystem::path(worker).parent_path().string();
  return {kBubblewrap,
          "--unshare-all",
          "--die-with-parent",
          "--new-session",
          "--ro-bind",
          "/",
          "/",
          "--tmpfs",
          "/tmp",
          "--ro-bind",
          directory,
          directory,
          "--proc",
          "/proc",
          "--dev",
          "/dev",
          "--cap-drop",
          "ALL",
          "--",
          worker};
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_BUBBLEWRAP_H_
