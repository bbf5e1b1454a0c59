// Shared checks for the identifiers and short texts that definitions and options carry.
#ifndef CODEMODE_CORE_IDENTIFIERS_H_
#define CODEMODE_CORE_IDENTIFIERS_H_

#include <string_view>

namespace codemode::internal {

// ^[A-Za-z][A-Za-z0-9._/-]{0,127}$ — the id of a tool, program or adapter.
bool is_identifier(std::string_view text);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_IDENTIFIERS_H_
