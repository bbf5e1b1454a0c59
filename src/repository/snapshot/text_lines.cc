#include "repository/snapshot/text_lines.h"

#include <algorithm>
#include <cstring>

#include "core/json/json_text.h"

namespace codemode::repository {
namespace {

constexpr std::size_t kBinaryProbeBytes = 8'000;

// The length of the well-formed UTF-8 sequence at the start of `text`, or 0.
std::size_t sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

bool looks_binary(std::string_view content) {
  const std::size_t probe = std::min(content.size(), kBinaryProbeBytes);
  return std::memchr(content.data(), '\0', probe) != nullptr;
}

std::vector<std::size_t> line_starts(std::string_view content) {
  std::vector<std::size_t> starts;
  std::size_t at = 0;
  while (at < content.size()) {
    starts.push_back(at);
    const void* newline = std::memchr(content.data() + at, '\n', content.size() - at);
    if (newline == nullptr) break;
    at = static_cast<std::size_t>(static_cast<const char*>(newline) - content.data()) + 1;
  }
  return starts;
}

std::string_view line_at(std::string_view content, const std::vector<std::size_t>& starts,
                         std::size_t index) {
  const std::size_t begin = starts[index];
  const std::size_t end = index + 1 < starts.size() ? starts[index + 1] : content.size();
  std::string_view line = content.substr(begin, end - begin);
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::size_t line_count(std::string_view content) {
  const auto newlines = static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n'));
  return newlines + (!content.empty() && content.back() != '\n' ? 1 : 0);
}

std::size_t offset_of_line(std::string_view content, std::size_t number) {
  std::size_t at = 0;
  for (std::size_t line = 1; line < number && at < content.size(); ++line) {
    const void* newline = std::memchr(content.data() + at, '\n', content.size() - at);
    if (newline == nullptr) return content.size();
    at = static_cast<std::size_t>(static_cast<const char*>(newline) - content.data()) + 1;
  }
  return at;
}

std::string_view next_line(std::string_view content, std::size_t& at) {
  if (at >= content.size()) return {};
  const void* newline = std::memchr(content.data() + at, '\n', content.size() - at);
  const std::size_t end =
      newline == nullptr
          ? content.size()
          : static_cast<std::size_t>(static_cast<const char*>(newline) - content.data());
  std::string_view line = content.substr(at, end - at);
  at = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string shown_line(std::string_view line, bool& cut) {
  cut = false;
  if (line.size() <= kMaxShownLineBytes && internal::is_valid_utf8(line)) return std::string(line);
  std::string shown;
  shown.reserve(std::min(line.size(), kMaxShownLineBytes));
  std::size_t at = 0;
  while (at < line.size()) {
    std::size_t length = sequence_length(line.substr(at));
    const std::string_view piece =
        length == 0 ? std::string_view("\xEF\xBF\xBD") : line.substr(at, length);
    if (shown.size() + piece.size() > kMaxShownLineBytes) {
      cut = true;
      break;
    }
    shown.append(piece);
    at += length == 0 ? 1 : length;
  }
  return shown;
}

}  // namespace codemode::repository
