// The self-hosted stencil cache: SpiderMonkey's self-hosted JavaScript, parsed once at build time
// and stored next to the worker binary, so each worker decodes it (about 1.5 ms) instead of
// parsing it (about 8 ms). A speed measure only: a missing, unreadable or stale file makes the
// worker parse the self-hosted code instead, with the same behaviour.
//
// File: the magic line "codemode self-hosted cache 1\n", then process_build_id() and '\n', then
// the engine's stencil bytes. A different build id means a different binary or library: stale.
#ifndef CODEMODE_WORKER_SELF_HOSTED_CACHE_H_
#define CODEMODE_WORKER_SELF_HOSTED_CACHE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codemode/error.h"

namespace codemode::worker {

// Where this binary's cache lives: "<path of this executable>.selfhosted", or "" if unknown.
std::string default_self_hosted_cache_path();

// The stencil bytes of the cache at `path`; empty when missing, unreadable or stale.
std::vector<std::uint8_t> read_self_hosted_cache(const std::string& path);

// Writes `stencil` with this process's header to `path` (replacing it atomically).
Status write_self_hosted_cache_file(const std::string& path, std::span<const std::uint8_t> stencil);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_SELF_HOSTED_CACHE_H_
