// How file content becomes lines a program can read: binary files are recognised (a NUL byte in
// the first 8,000 bytes, as git decides) and never shown; lines split at "\n" with a trailing
// "\r" dropped; bytes that are not UTF-8 shown as U+FFFD; a line longer than kMaxShownLineBytes
// cut on a character boundary (and said to be).
#ifndef CODEMODE_REPOSITORY_SNAPSHOT_TEXT_LINES_H_
#define CODEMODE_REPOSITORY_SNAPSHOT_TEXT_LINES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace codemode::repository {

inline constexpr std::size_t kMaxShownLineBytes = 2'048;

bool looks_binary(std::string_view content);

// The start offset of every line of `content` (a last line without "\n" counts; an empty
// content has none).
std::vector<std::size_t> line_starts(std::string_view content);

// Line `index` (0-based) of `content` given its line_starts, without its "\n" or "\r\n".
std::string_view line_at(std::string_view content, const std::vector<std::size_t>& starts,
                         std::size_t index);

// How many lines `content` holds (a last line without "\n" counts).
std::size_t line_count(std::string_view content);
// Where line `number` (1-based, at most line_count) starts.
std::size_t offset_of_line(std::string_view content, std::size_t number);
// The line starting at `at`, without its "\n" or "\r\n"; `at` moves to the next line.
std::string_view next_line(std::string_view content, std::size_t& at);

// `line` as valid UTF-8 of at most kMaxShownLineBytes; `cut` is set when it was shortened.
std::string shown_line(std::string_view line, bool& cut);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SNAPSHOT_TEXT_LINES_H_
