// The constants of the parent <-> worker wire protocol, shared by the frame reader and writer on
// both ends. docs/protocol.md gives the grammar field by field; keep the two in step.
//
// A frame is a 4-byte big-endian length N (1 <= N <= cap) followed by N bytes of one UTF-8 JSON
// object. The cap depends on the direction and on the program's own limits; kMaxFrameBytes bounds
// every cap, so no frame can make either side allocate more than that.
#ifndef CODEMODE_PROTOCOL_FRAME_FORMAT_H_
#define CODEMODE_PROTOCOL_FRAME_FORMAT_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "codemode/json.h"
#include "codemode/process_adapter.h"
#include "codemode/program.h"

namespace codemode::internal {

inline constexpr int kProtocolVersion = 1;

// The "confined" frame's layers: every layer confine_worker applies, in its order. The worker
// names exactly these; the parent refuses any other list, so a worker built without a layer never
// gets a program to run.
inline constexpr std::array<std::string_view, 6> kConfinementLayers{
    "engine", "fds", "rlimits", "capabilities", "process", "seccomp"};
// The same for the isolated profile: the namespaces and the empty root come before the fds.
inline constexpr std::array<std::string_view, 7> kIsolatedConfinementLayers{
    "engine", "namespaces", "fds", "rlimits", "capabilities", "process", "seccomp"};
// The JIT engine profile names its two weaker layers differently (the JIT on; a filter that lets
// memory become executable), so a parent that asked for the interpreter never accepts a JIT
// worker, and one that asked for the JIT never runs a worker that is not what it expects.
inline constexpr std::array<std::string_view, 6> kJitConfinementLayers{
    "engine_jit", "fds", "rlimits", "capabilities", "process", "seccomp_jit"};
inline constexpr std::array<std::string_view, 7> kIsolatedJitConfinementLayers{
    "engine_jit", "namespaces", "fds", "rlimits", "capabilities", "process", "seccomp_jit"};

// The layers a worker of `isolation` and `engine` must name.
inline std::span<const std::string_view> confinement_layers(IsolationProfile isolation,
                                                            EngineProfile engine) {
  const bool isolated = isolation == IsolationProfile::kIsolated;
  if (engine == EngineProfile::kJit) {
    if (isolated) return kIsolatedJitConfinementLayers;
    return kJitConfinementLayers;
  }
  if (isolated) return kIsolatedConfinementLayers;
  return kConfinementLayers;
}

// Width of the big-endian length prefix.
inline constexpr std::size_t kFrameLengthBytes = 4;

// Room for everything in a frame besides its one large value (type, ids, status, error, names).
inline constexpr std::size_t kFrameEnvelopeBytes = 64u << 10;

// A model-profile program's console lines, as the compact JSON array the result frame carries:
// at most this many bytes (inside kFrameEnvelopeBytes, with the rest of a result's envelope).
inline constexpr std::size_t kMaxConsoleBytes = 16u << 10;

// A program source in a JSON string: every byte may become a six-byte \u00XX escape.
inline constexpr std::size_t kMaxEscapedSourceBytes = 6 * kMaxSourceBytes;

// The absolute cap: the largest start frame (escaped source + the largest input + envelope).
// Every other frame's cap is smaller.
inline constexpr std::size_t kMaxFrameBytes =
    kMaxEscapedSourceBytes + static_cast<std::size_t>(CodeLimitMaxima::kMaxInputBytes) +
    kFrameEnvelopeBytes;

// Values in a frame are the program's bounded JSON one level down, inside the envelope object.
inline constexpr int kFrameMaxDepth = 32 + 2;
inline constexpr std::size_t kFrameMaxValues = 100'000 + 64;

// parse_json / serialize_json limits for a frame body of at most `cap` bytes.
constexpr JsonLimits frame_json_limits(std::size_t cap) {
  return JsonLimits{.max_bytes = cap, .max_depth = kFrameMaxDepth, .max_values = kFrameMaxValues};
}

// Cap of the start frame, which the worker reads before it knows the program's limits.
constexpr std::size_t start_frame_cap() { return kMaxFrameBytes; }

// Cap of a toolResult frame (parent -> worker): the tool output is at most maxOutputBytes.
constexpr std::size_t tool_result_frame_cap(std::uint64_t max_output_bytes) {
  return std::min<std::size_t>(max_output_bytes + kFrameEnvelopeBytes, kMaxFrameBytes);
}

// Cap of every frame the worker writes (confined, toolCall, result): the largest value in them is
// a tool input (maxToolInputBytes) or the result (maxOutputBytes).
constexpr std::size_t worker_frame_cap(std::uint64_t max_output_bytes,
                                       std::uint64_t max_tool_input_bytes) {
  return std::min<std::size_t>(
      std::max(max_output_bytes, max_tool_input_bytes) + kFrameEnvelopeBytes, kMaxFrameBytes);
}

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_FRAME_FORMAT_H_
