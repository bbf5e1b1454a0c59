// The Docker suite's daemon and image: the private dockerd and the worker image that the ctest
// fixture "docker" started and built (scripts/docker, scripts/docker-image), read from
// CODEMODE_TEST_DOCKER_DIR. The suite's tests hold the resource lock "docker_daemon", so they
// never run beside each other and "no codemode container is left" is a check of their own.
#ifndef CODEMODE_TESTS_DOCKER_DOCKER_FIXTURE_H_
#define CODEMODE_TESTS_DOCKER_DOCKER_FIXTURE_H_

#include <chrono>
#include <fstream>
#include <sstream>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "codemode/docker_adapter.h"
#include "codemode/json.h"
#include "codemode/program.h"

#include "core/process/command_runner.h"
#include "support/timing.h"

namespace codemode::testing {

inline constexpr char kDockerCli[] = "/usr/bin/docker";

struct DockerDaemon {
  std::string host;        // unix:///.../docker.sock
  std::string image;       // the worker image's id
  std::string provenance;  // its SPDX document's digest
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fixture's daemon; empty fields when the fixture did not run (the test then fails).
inline DockerDaemon docker_daemon() {
  const std::string dir = CODEMODE_TEST_DOCKER_DIR;
  DockerDaemon daemon;
  std::string server = read_text(dir + "/server");
  while (!server.empty() && server.back() == '\n') server.pop_back();
  daemon.host = server;
  const Json image = Json::parse(read_text(dir + "/image.json"), nullptr, false);
  if (image.is_object()) {
    daemon.image = image.value("image", "");
    daemon.provenance = image.value("provenance", "");
  }
  return daemon;
}

// The adapter's options for the fixture's daemon. Debian 12's engine (20.10) does not know
// seccomp=builtin, so the daemon's default profile is named by leaving the flag out.
inline DockerAdapterOptions docker_options(const DockerDaemon& daemon) {
  return {.docker_path = kDockerCli,
          .image = daemon.image,
          .provenance = daemon.provenance,
          .host = daemon.host,
          .seccomp = DockerSeccomp::kDaemonDefault};
}

struct DockerRun {
  bool ok = false;
  std::string out;
};

// `docker --host <daemon> <arguments>` with an empty environment (and DOCKER_BUILDKIT=0 for
// builds), at most 60 s.
inline DockerRun docker_cli(const DockerDaemon& daemon, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{kDockerCli, "--host", daemon.host};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  internal::CommandRun run =
      internal::run_command({.path = kDockerCli, .argv = argv, .env = {"DOCKER_BUILDKIT=0"}}, "",
                            1u << 20, std::stop_token());
  return {run.ending == internal::CommandRun::Ending::kExitedZero, run.stdout_text};
}

// The ids of the daemon's containers named codemode-*, running or not.
inline std::vector<std::string> codemode_containers(const DockerDaemon& daemon) {
  const DockerRun listed =
      docker_cli(daemon, {"ps", "--all", "--quiet", "--filter", "name=codemode-"});
  std::vector<std::string> ids;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) ids.push_back(line);
  }
  if (!listed.ok) ids.push_back("<docker ps failed>");
  return ids;
}

// The codemode containers still there once every removal in progress has ended. A container that
// exits is removed by the daemon (`docker run --rm`), and the adapter's `rm --force` may then
// return at once, its removal being already in progress, so `ps` can list the container for a
// moment after execute returned. Waits for the list to empty, up to slack(10 s).
inline std::vector<std::string> codemode_containers_left(const DockerDaemon& daemon) {
  const auto give_up = std::chrono::steady_clock::now() + slack(std::chrono::seconds(10));
  std::vector<std::string> ids = codemode_containers(daemon);
  while (!ids.empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ids = codemode_containers(daemon);
  }
  return ids;
}

// The limits every integration case runs under (docs/docker.md, "Tests").
inline CodeLimits docker_limits() {
  return CodeLimits{.cpu_millis = 250,
                    .wall_time_millis = 10'000,
                    .memory_bytes = 32 << 20,
                    .scratch_bytes = 1 << 20,
                    .max_input_bytes = 1024,
                    .max_output_bytes = 1024,
                    .max_tool_input_bytes = 1024,
                    .max_tool_calls = 2,
                    .max_tool_concurrency = 2};
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_DOCKER_DOCKER_FIXTURE_H_
