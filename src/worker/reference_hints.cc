#include "worker/reference_hints.h"

#include <array>
#include <utility>

namespace codemode::worker {
namespace {

constexpr std::string_view kNoNetwork =
    "The sandbox has no network: call one of the host's tools instead (codemode.<namespace>."
    "<method>(args) in the code tool, tools.call(id, input) in a program).";
constexpr std::string_view kNoModules =
    "The sandbox has no modules: use the JavaScript built-ins and the host's tools.";
constexpr std::string_view kNoProcess =
    "The sandbox has no process or environment: take what the program needs from its input.";
constexpr std::string_view kNoBrowser =
    "The sandbox is not a browser: there is no page, storage or window, only the JavaScript "
    "built-ins, console, timers and the host's tools.";

constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kHints{{
    {"fetch", kNoNetwork},
    {"XMLHttpRequest", kNoNetwork},
    {"WebSocket", kNoNetwork},
    {"EventSource", kNoNetwork},
    {"require", kNoModules},
    {"module", kNoModules},
    {"exports", kNoModules},
    {"__dirname", kNoModules},
    {"__filename", kNoModules},
    {"process", kNoProcess},
    {"Deno", kNoProcess},
    {"Bun", kNoProcess},
    {"Buffer", "Use TextEncoder, TextDecoder, Uint8Array, atob and btoa for bytes and base64."},
    {"global", "Use globalThis."},
    {"setImmediate", "Use setTimeout(callback, 0) or queueMicrotask(callback)."},
    {"window", kNoBrowser},
    {"document", kNoBrowser},
    {"localStorage", kNoBrowser},
    {"sessionStorage", kNoBrowser},
    {"navigator", kNoBrowser},
}};

constexpr std::string_view kNotDefined = " is not defined";

}  // namespace

std::string with_reference_hint(std::string_view message) {
  if (message.size() <= kNotDefined.size() ||
      message.substr(message.size() - kNotDefined.size()) != kNotDefined) {
    return std::string(message);
  }
  const std::string_view name = message.substr(0, message.size() - kNotDefined.size());
  for (const auto& [known, hint] : kHints) {
    if (name == known) return std::string(message) + ". " + std::string(hint);
  }
  return std::string(message);
}

}  // namespace codemode::worker
