// The content of a file an approval binds (ToolBinding::files in tool.h), as a short text that
// changes whenever the file does: "sha256:<64 hex>" for a regular file, "absent", "unreadable"
// (permission denied) or "not_regular" otherwise. A failure that says nothing about the file (no
// fd left, an I/O error) is an error, never a state: it must not make an approval stale. A file is
// read whole, once per change: digests are kept by the file's identity and change times (device,
// inode, size, mtime, ctime), and ctime moves on every write, rename onto the path or attribute
// change, whoever makes it. Thread-safety: may be called from several threads at once.
#ifndef CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_
#define CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_

#include <string>

#include "codemode/error.h"

namespace codemode::internal {

// STORAGE_UNAVAILABLE (rule "tool_binding") when the file could not be read for a reason of the
// moment; try again.
Result<std::string> bound_file_state(const std::string& path);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_
