// What a long-running HTTP command (`codemode mcp --transport http`, `codemode workflow console`)
// shares: its --listen address, and serving until SIGINT or SIGTERM.
#ifndef CODEMODE_HTTP_SERVE_UNTIL_STOPPED_H_
#define CODEMODE_HTTP_SERVE_UNTIL_STOPPED_H_

#include <string>

#include "codemode/error.h"

#include "http/http_server.h"

namespace codemode::http {

// "HOST:PORT" with an IPv4 literal host and a port 0..65535 (0: the kernel picks) into `options`.
// INVALID_CONFIG "http_listen" otherwise.
Status parse_listen_address(const std::string& text, HttpServerOptions& options);

// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts later. Call it
// first thing, before any thread exists, so that wait_for_stop_signal is the one to take them.
void block_stop_signals();

// Waits (sigwait) until SIGINT or SIGTERM arrives. REQUIRES: block_stop_signals() was called before
// any thread of the process was started.
void wait_for_stop_signal();

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_SERVE_UNTIL_STOPPED_H_
