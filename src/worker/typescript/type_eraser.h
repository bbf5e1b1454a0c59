// The TypeScript type eraser: turns a program written in TypeScript into the JavaScript the engine
// runs by replacing type-only syntax with whitespace. Nothing moves: every line, byte offset and
// UTF-16 column of the code that is kept is where the model wrote it, so the engine's error
// positions and stack traces point into the program as written (docs/typescript.md).
//
// What is erased: annotations, return types, type parameters and arguments, `as`, `satisfies`,
// `!`, `<T>` assertions, interfaces, type aliases, `declare`, overloads, access modifiers,
// `abstract`, `implements`, index signatures, type-only imports and exports, and namespaces that
// hold only types. What is refused: constructs that would generate code (enum, namespaces with
// values, parameter properties, decorators, `import =`, `export =`, auto-accessors), and an `as`
// whose erasure would regroup the operators around it.
//
// The input is untrusted. erase_types is linear in time (a budget of scanned bytes caps the
// parser's speculation), bounded in recursion (Parser::kMaxDepth levels: the deepest nesting of
// any kind stays under 256 KiB of stack in a release build, so call it on a thread with at least
// that much to spare), and refuses inputs over kMaxTypeScriptSourceBytes.
//
// Thread-safety: a pure function.
#ifndef CODEMODE_WORKER_TYPESCRIPT_TYPE_ERASER_H_
#define CODEMODE_WORKER_TYPESCRIPT_TYPE_ERASER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace codemode::worker {

inline constexpr std::size_t kMaxTypeScriptSourceBytes = std::size_t{1} << 20;

// Why the types of a program could not be erased, and where.
struct ErasureRefusal {
  enum class Reason {
    kUnsupported,  // a TypeScript construct with runtime meaning (`construct` names it)
    kSyntax,       // the text is not TypeScript (nor JavaScript) at `line`:`column`
    kTooDeep,      // nesting beyond Parser::kMaxDepth
    kTooComplex,   // parsing would exceed its budget of work (crafted ambiguity)
    kTooLarge,     // more than kMaxTypeScriptSourceBytes
  };
  Reason reason;
  std::string construct;  // kUnsupported only: "enum", "namespace", "decorator", ...
  int line = 1;           // 1-based
  int column = 1;         // 1-based, in UTF-16 code units, as the engine counts
  std::string message;    // one sentence for the program's author, naming the construct and line
};

// On success, the JavaScript: exactly source.size() bytes, each line terminator (\n, \r, U+2028,
// U+2029) at its offset, each erased character replaced by whitespace of the same UTF-8 and
// UTF-16 length, and where erasure would change how JavaScript inserts semicolons, a `;` (or a
// moved `)`) written into the erased whitespace. Plain JavaScript comes back unchanged. On
// failure, the first construct that could not be erased. Throws only std::bad_alloc.
[[nodiscard]] std::variant<std::string, ErasureRefusal> erase_types(std::string_view source);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TYPESCRIPT_TYPE_ERASER_H_
