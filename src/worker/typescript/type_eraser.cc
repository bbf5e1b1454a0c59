#include "worker/typescript/type_eraser.h"

#include <cstdint>

#include "worker/typescript/erasure_edits.h"
#include "worker/typescript/js_scanner.h"
#include "worker/typescript/ts_parser.h"

namespace codemode::worker {
namespace {

using typescript::ParseStop;

// 1-based line and UTF-16 column of `offset`, with the engine's line terminators.
void locate(std::string_view source, std::uint32_t offset, ErasureRefusal& refusal) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < source.size();) {
    if (const std::size_t terminator = typescript::line_terminator_length(source, i);
        terminator > 0) {
      // \r\n is one line break
      if (!(source[i] == '\r' && i + 1 < source.size() && source[i + 1] == '\n')) {
        ++line;
        column = 1;
      }
      i += terminator;
      continue;
    }
    const std::size_t length = typescript::utf8_sequence_length(source, i);
    column += length == 4 ? 2 : 1;
    i += length;
  }
  refusal.line = line;
  refusal.column = column;
}

ErasureRefusal refusal_for(std::string_view source, const ParseStop& stop) {
  ErasureRefusal refusal{.reason = ErasureRefusal::Reason::kSyntax};
  locate(source, stop.offset, refusal);
  const std::string line = std::to_string(refusal.line);
  switch (stop.kind) {
    case ParseStop::Kind::kUnsupported:
      refusal.reason = ErasureRefusal::Reason::kUnsupported;
      refusal.construct = stop.construct;
      refusal.message = "TypeScript `" + stop.construct + "` cannot run here (line " + line +
                        "): only type annotations are erased; " + stop.advice + ".";
      break;
    case ParseStop::Kind::kSyntax:
      refusal.message =
          "The program is neither JavaScript nor TypeScript that can be erased (line " + line +
          ", column " + std::to_string(refusal.column) + ").";
      break;
    case ParseStop::Kind::kTooDeep:
      refusal.reason = ErasureRefusal::Reason::kTooDeep;
      refusal.message = "The program nests too deeply to erase its types (line " + line + ").";
      break;
    case ParseStop::Kind::kTooComplex:
      refusal.reason = ErasureRefusal::Reason::kTooComplex;
      refusal.message =
          "The program is too ambiguous to erase its types in bounded time (line " + line + ").";
      break;
  }
  return refusal;
}

}  // namespace

std::variant<std::string, ErasureRefusal> erase_types(std::string_view source) {
  if (source.size() > kMaxTypeScriptSourceBytes) {
    return ErasureRefusal{.reason = ErasureRefusal::Reason::kTooLarge,
                          .message =
                              "The program is larger than 1 MiB, the most whose types are "
                              "erased."};
  }
  typescript::EditList edits;
  typescript::Parser parser(source, edits);
  try {
    parser.parse_program();
  } catch (const ParseStop& stop) {
    return refusal_for(source, stop);
  }
  return edits.apply(source);
}

}  // namespace codemode::worker
