// The seven repository operations (include/codemode/repository_tools.h), one file each.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_OPERATIONS_H_
#define CODEMODE_REPOSITORY_OPERATIONS_OPERATIONS_H_

#include "repository/operations/operation_support.h"

namespace codemode::repository {

OperationSpec find_repositories_operation();  // find_repositories_operation.cc
OperationSpec refs_operation();               // refs_operation.cc
OperationSpec open_operation();               // open_operation.cc
OperationSpec list_operation();               // list_operation.cc
OperationSpec search_code_operation();        // search_code_operation.cc
OperationSpec read_operation();               // read_operation.cc
OperationSpec context_operation();            // context_operation.cc

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_OPERATIONS_OPERATIONS_H_
