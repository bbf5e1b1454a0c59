// The console page's files (src/console/assets/), embedded in the binary at build time
// (cmake/embed_assets.cmake writes console_assets.cc): nothing is loaded from anywhere else.
#ifndef CODEMODE_CONSOLE_CONSOLE_ASSETS_H_
#define CODEMODE_CONSOLE_CONSOLE_ASSETS_H_

#include <string_view>

namespace codemode::console {

struct Asset {
  std::string_view path;          // "/", "/console.js", "/source_view.js", "/console.css"
  std::string_view content_type;  // with charset
  std::string_view body;
};

// The asset served at `path`, or nullptr.
const Asset* find_asset(std::string_view path);

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_ASSETS_H_
