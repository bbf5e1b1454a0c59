// What the eraser changes in the source, recorded while it parses and applied once at the end:
// spans of type syntax to blank, and single ASCII characters (`;` or a moved `)`) to write into a
// blanked span. Parsing may speculate and give up, so the list can be rewound to a mark.
//
// Blanking keeps every position the engine reports: each erased character becomes whitespace of
// the same length in UTF-8 bytes *and* in UTF-16 units (an ASCII character a space, a two-byte one
// U+00A0, a three-byte one U+3000, a four-byte one two U+00A0), and line terminators stay. So byte
// offsets, lines and UTF-16 columns of all code that is kept are those of the source.
//
// Thread-safety: used by one thread.
#ifndef CODEMODE_WORKER_TYPESCRIPT_ERASURE_EDITS_H_
#define CODEMODE_WORKER_TYPESCRIPT_ERASURE_EDITS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace codemode::worker::typescript {

class EditList {
 public:
  struct Span {
    std::uint32_t start;
    std::uint32_t end;
  };
  struct Mark {
    std::size_t blanks;
    std::size_t puts;
  };

  Mark mark() const { return {blanks_.size(), puts_.size()}; }
  void rewind(Mark mark) {
    blanks_.resize(mark.blanks);
    puts_.resize(mark.puts);
  }

  // Blanks [start, end); an empty span is ignored. Spans may overlap.
  void blank(std::uint32_t start, std::uint32_t end) {
    if (start < end) blanks_.push_back({start, end});
  }
  // The span blanked last, or nullptr.
  const Span* last_blank() const { return blanks_.empty() ? nullptr : &blanks_.back(); }

  // Writes `c` over the first (or, `from_back`, the last) byte of [start, end) that is ASCII in
  // `source` and no line terminator; the span must be blanked. False when there is no such byte.
  bool put(std::string_view source, Span span, char c, bool from_back);

  // The source with every blank and put applied: the same length, with line terminators where
  // they were.
  std::string apply(std::string_view source) const;

 private:
  struct Put {
    std::uint32_t offset;
    char c;
  };
  std::vector<Span> blanks_;
  std::vector<Put> puts_;
};

}  // namespace codemode::worker::typescript

#endif  // CODEMODE_WORKER_TYPESCRIPT_ERASURE_EDITS_H_
