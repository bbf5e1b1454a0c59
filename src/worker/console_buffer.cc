#include "worker/console_buffer.h"

namespace codemode::worker {
namespace {

// Bytes of `text` as a JSON string, quotes included, as nlohmann's dump writes it.
std::size_t json_string_bytes(std::string_view text) {
  std::size_t bytes = 2;
  for (const char c : text) {
    const auto unit = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
      bytes += 2;
    } else if (unit < 0x20) {
      bytes += 6;
    } else {
      bytes += 1;
    }
  }
  return bytes;
}

}  // namespace

void ConsoleBuffer::add(std::string_view line) {
  const std::size_t cost = json_string_bytes(line) + (logs_.lines.empty() ? 0 : 1);
  if (full_ || used_ + cost > max_bytes_) {
    full_ = true;
    ++logs_.dropped;
    return;
  }
  used_ += cost;
  logs_.lines.emplace_back(line);
}

}  // namespace codemode::worker
