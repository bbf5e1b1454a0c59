// RAII owners for the libgit2 objects the repository tools hold, and libgit2's one-time setup.
//
// Every owner frees its object exactly once; none is copyable. libgit2 objects are not shared
// between threads here: each operation opens its own git_repository (repository_access.h) and
// everything it looks up dies with the operation.
#ifndef CODEMODE_REPOSITORY_SNAPSHOT_GIT_HANDLES_H_
#define CODEMODE_REPOSITORY_SNAPSHOT_GIT_HANDLES_H_

#include <memory>
#include <string>

#include <git2.h>

namespace codemode::repository {

template <typename T, void (*Free)(T*)>
struct GitFree {
  void operator()(T* object) const { Free(object); }
};

using GitRepository = std::unique_ptr<git_repository, GitFree<git_repository, git_repository_free>>;
using GitObject = std::unique_ptr<git_object, GitFree<git_object, git_object_free>>;
using GitCommit = std::unique_ptr<git_commit, GitFree<git_commit, git_commit_free>>;
using GitTree = std::unique_ptr<git_tree, GitFree<git_tree, git_tree_free>>;
using GitTreeEntry = std::unique_ptr<git_tree_entry, GitFree<git_tree_entry, git_tree_entry_free>>;
using GitBlob = std::unique_ptr<git_blob, GitFree<git_blob, git_blob_free>>;
using GitReference = std::unique_ptr<git_reference, GitFree<git_reference, git_reference_free>>;
using GitReferenceIterator =
    std::unique_ptr<git_reference_iterator,
                    GitFree<git_reference_iterator, git_reference_iterator_free>>;
using GitOdb = std::unique_ptr<git_odb, GitFree<git_odb, git_odb_free>>;

// Initializes libgit2 once per process and keeps it from reading any configuration outside a
// repository: the system, global (~/.gitconfig) and XDG search paths are emptied, so nothing of
// the server account's git setup (an insteadOf, a safe.directory) changes what the tools see.
// It also turns off libgit2's hash verification of objects read, for the whole process (a host
// that links libgit2 for other uses shares the setting).
// Thread-safe; later calls return at once.
void ensure_libgit2();

// The hex text of an object id.
std::string oid_hex(const git_oid& oid);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SNAPSHOT_GIT_HANDLES_H_
