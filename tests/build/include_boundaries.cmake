# Holds each library's include view (cmake/sources.cmake, codemode_include_view) to what
# docs/architecture.md ("Folders") says it may include: for each target, one header it may include
# must compile with the target's include directories, and one of a folder it must not reach must
# not be found. Run by ctest as `cmake -P` with CXX, WORK_DIR and, per target NAME, NAME_DIRS (its
# include directories joined with "|").
cmake_minimum_required(VERSION 3.25)

# Compiles a file holding `#include "<header>"` with `dirs`; sets `found` to whether it did.
function(probe dirs header found)
  string(MAKE_C_IDENTIFIER "${header}" name)
  set(source ${WORK_DIR}/${name}.cc)
  file(WRITE ${source} "#include \"${header}\"\n")
  string(REPLACE "|" ";" dir_list "${dirs}")
  set(flags)
  foreach(dir IN LISTS dir_list)
    list(APPEND flags -I${dir})
  endforeach()
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only ${flags} ${source}
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(status EQUAL 0)
    set(${found} TRUE PARENT_SCOPE)
  else()
    set(${found} FALSE PARENT_SCOPE)
  endif()
endfunction()

set(failures 0)
# target | a header it may include | a header it must not reach
set(cases
  "MCP|mcp/serve_stdio.h|tools/tool_access.h"
  "MCP|core/json/json_text.h|sandbox/process/worker_session.h"
  "MCP|http/http_access.h|executor/execution_limits.h"
  "WORKFLOW|workflow/run/approval.h|tools/tool_access.h"
  "WORKFLOW|codemode/workflow_runtime.h|mcp/serve_stdio.h"
  "CONSOLE|console/console_access.h|workflow/run/approval.h"
  "HTTP|http/http_access.h|mcp/serve_stdio.h"
  "REPOSITORY|repository/paging/page_cursor.h|tools/tool_access.h"
  "CLI|cli/cli_io.h|sandbox/docker/sarif_scan.h"
  "CLI|tools/program/code_limit_fields.h|workflow/run/approval.h"
  "TYPE_ERASER|worker/typescript/type_eraser.h|core/json/json_text.h"
  "TYPE_ERASER|worker/typescript/ts_parser.h|worker/engine/engine.h")
file(MAKE_DIRECTORY ${WORK_DIR})
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 target)
  list(GET parts 1 allowed)
  list(GET parts 2 forbidden)
  probe("${${target}_DIRS}" ${allowed} found)
  if(NOT found)
    message(SEVERE_WARNING "${target}: ${allowed} should compile and does not")
    math(EXPR failures "${failures} + 1")
  endif()
  probe("${${target}_DIRS}" ${forbidden} found)
  if(found)
    message(SEVERE_WARNING "${target}: ${forbidden} is reachable across the library's boundary")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} include boundary check(s) failed")
endif()
message(STATUS "every include boundary holds")
