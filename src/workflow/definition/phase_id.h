// The ids a workflow's phases may have.
#ifndef CODEMODE_WORKFLOW_DEFINITION_PHASE_ID_H_
#define CODEMODE_WORKFLOW_DEFINITION_PHASE_ID_H_

#include <string_view>

namespace codemode::internal {

// ^[A-Za-z][A-Za-z0-9._-]{0,127}$ and not "constructor", "prototype" or "__proto__" (names a
// JavaScript reader of the audit could trip over). No '/' or ':', so execution and call ids
// built from it stay unambiguous.
bool is_phase_id(std::string_view text);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_PHASE_ID_H_
