#include "repository/walk/file_scan.h"

#include <algorithm>

namespace codemode::repository {
namespace {

// Whole lines from `at` within the text [at, end), where `end` ends a line: at most `bytes` of
// them (their last "\n" excluded), or, when the line at `at` alone is longer, that line.
struct Lines {
  std::size_t end = 0;
  bool longer = false;
};

Lines lines_from(std::string_view content, std::size_t at, std::size_t end, std::size_t bytes) {
  if (end - at <= bytes) return Lines{.end = end};
  // `at` starts a line, so the search back stops at the "\n" before it at the latest.
  const std::size_t newline = content.rfind('\n', at + bytes);
  if (newline != std::string_view::npos && newline >= at) return Lines{.end = newline};
  return Lines{.end = std::min(end, content.find('\n', at + bytes)), .longer = true};
}

// Line numbers, counted only as far as they are asked for.
class LineCounter {
 public:
  LineCounter(std::string_view content, ScanPosition from)
      : content_(content), counted_(from.offset), lines_(from.line) {}
  // How many lines start before `offset`. REQUIRES: offsets never decrease.
  std::size_t lines_before(std::size_t offset) {
    lines_ += static_cast<std::size_t>(
        std::count(content_.begin() + static_cast<std::ptrdiff_t>(counted_),
                   content_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    counted_ = offset;
    return lines_;
  }
  ScanPosition at(std::size_t offset) { return ScanPosition{offset, lines_before(offset)}; }

 private:
  std::string_view content_;
  std::size_t counted_;
  std::size_t lines_;
};

enum class PieceEnd { kDone, kDeclined, kStopped };

// The matching lines of the piece [at, end), found as git grep finds them: the first match, its
// line, then the next match from the line after; one RE2 call each, and one that finds no more.
// `at` moves past each line reported.
PieceEnd report_matches(const Matcher& matcher, std::string_view content, std::size_t& at,
                        std::size_t end, LineCounter& counter, ScanLimit& limit,
                        const ScanSink& sink) {
  while (true) {
    const std::optional<std::size_t> match = matcher.first_match(content, at, end);
    if (!match) return PieceEnd::kDone;
    // A match stays on its line, and `at` starts one.
    const std::size_t newline = content.substr(0, *match).rfind('\n');
    const std::size_t begin = newline == std::string_view::npos ? at : std::max(at, newline + 1);
    const std::size_t line_end = std::min(end, content.find('\n', *match));
    std::string_view text = content.substr(begin, line_end - begin);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (!sink.found(MatchingLine{counter.lines_before(begin) + 1, begin, line_end, text})) {
      at = begin;
      return PieceEnd::kDeclined;
    }
    limit.moved_on();
    if (line_end == end) return PieceEnd::kDone;
    at = line_end + 1;
    if (!limit.may_go_on()) return PieceEnd::kStopped;
  }
}

}  // namespace

bool ScanLimit::may_go_on() {
  if (ended_ == Ended::kNo) {
    if (stop_.stop_requested()) {
      ended_ = Ended::kCancelled;
    } else if (moved_on_ && std::chrono::steady_clock::now() > deadline_) {
      ended_ = Ended::kOutOfTime;
    }
  }
  return ended_ == Ended::kNo;
}

std::optional<ScanPosition> scan_file(const Matcher& matcher, std::string_view content,
                                      ScanPosition from, ScanLimit& limit, ScanCounts& counts,
                                      const ScanSink& sink) {
  std::size_t at = std::min(from.offset, content.size());
  LineCounter counter(content, ScanPosition{at, from.line});
  // Where the last line's text ends.
  const std::size_t text_end = content.size() - (content.ends_with('\n') ? 1 : 0);
  while (at < content.size()) {
    if (!limit.may_go_on()) return counter.at(at);
    const Lines piece = lines_from(content, at, text_end, matcher.max_line_bytes());
    const std::size_t next = std::min(piece.end + 1, content.size());
    if (piece.longer) {
      if (!sink.skipping_long_line()) return counter.at(at);
      ++counts.skipped_long_lines;
    } else {
      const std::size_t piece_at = at;
      const PieceEnd end = report_matches(matcher, content, at, piece.end, counter, limit, sink);
      counts.bytes_scanned += (end == PieceEnd::kDone ? next : at) - piece_at;
      if (end != PieceEnd::kDone) return counter.at(at);
    }
    at = next;
    limit.moved_on();
  }
  return std::nullopt;
}

}  // namespace codemode::repository
