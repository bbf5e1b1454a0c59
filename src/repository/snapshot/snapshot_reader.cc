#include "repository/snapshot/snapshot_reader.h"

#include <utility>

#include "core/json/json_text.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {
namespace {

EntryKind kind_of(git_filemode_t mode) {
  switch (mode) {
    case GIT_FILEMODE_TREE:
      return EntryKind::kDirectory;
    case GIT_FILEMODE_LINK:
      return EntryKind::kSymlink;
    case GIT_FILEMODE_COMMIT:
      return EntryKind::kSubmodule;
    default:
      return EntryKind::kFile;
  }
}

}  // namespace

std::string_view to_string(EntryKind kind) {
  switch (kind) {
    case EntryKind::kFile:
      return "file";
    case EntryKind::kDirectory:
      return "directory";
    case EntryKind::kSymlink:
      return "symlink";
    case EntryKind::kSubmodule:
      return "submodule";
  }
  return "file";
}

Error unreadable(std::string_view repository) {
  return Error::tool_failed("repository_unreadable",
                            "Repository '" + std::string(repository) + "' could not be read.");
}

Result<SnapshotReader> SnapshotReader::open(RepositoryState& state, std::string_view snapshot_id) {
  Result<Snapshot> snapshot = state.snapshots.find(snapshot_id);
  if (!snapshot.ok()) return std::move(snapshot).error();
  Result<GitRepository> repository = state.roots.open(snapshot->repository);
  if (!repository.ok()) return std::move(repository).error();
  git_tree* tree = nullptr;
  if (git_tree_lookup(&tree, repository->get(), &snapshot->tree) != 0) {
    return unreadable(snapshot->repository);
  }
  GitTree owned_tree(tree);
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repository->get()) != 0) return unreadable(snapshot->repository);
  return SnapshotReader(std::move(*snapshot), std::move(*repository), std::move(owned_tree),
                        GitOdb(odb));
}

Json SnapshotReader::provenance() const {
  return Json{{"snapshot_id", snapshot_.id},
              {"repo", snapshot_.repository},
              {"commit_sha", oid_hex(snapshot_.commit)}};
}

Result<SnapshotEntry> SnapshotReader::entry(const std::string& path) const {
  if (path.empty()) {
    return SnapshotEntry{.path = "", .kind = EntryKind::kDirectory, .oid = snapshot_.tree};
  }
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree_.get(), path.c_str()) != 0) {
    return Error::tool_failed("path_not_found", "No entry '" + path + "' in this snapshot.");
  }
  GitTreeEntry found(raw);
  return SnapshotEntry{.path = path,
                       .kind = kind_of(git_tree_entry_filemode(found.get())),
                       .oid = *git_tree_entry_id(found.get())};
}

Result<bool> SnapshotReader::walk(const std::string& start, int depth,
                                  const std::function<bool(const SnapshotEntry&)>& visit) const {
  GitTree owned;
  const git_tree* tree = tree_.get();
  if (!start.empty()) {
    Result<SnapshotEntry> directory = entry(start);
    if (!directory.ok()) return std::move(directory).error();
    if (directory->kind != EntryKind::kDirectory) {
      return Error::tool_failed("not_a_directory", "'" + start + "' is not a directory.");
    }
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repository_.get(), &directory->oid) != 0) {
      return unreadable(snapshot_.repository);
    }
    owned.reset(raw);
    tree = raw;
  }
  WalkState walk;
  Status walked = walk_tree(tree, start.empty() ? "" : start + "/", 1, depth, visit, walk);
  if (!walked.ok()) return std::move(walked).error();
  return walk.truncated;
}

Status SnapshotReader::walk_tree(const git_tree* tree, const std::string& prefix, int level,
                                 int depth, const std::function<bool(const SnapshotEntry&)>& visit,
                                 WalkState& walk) const {
  const std::size_t count = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < count && !walk.stopped; ++i) {
    if (++walk.visited > kMaxWalkEntries) {
      walk.truncated = walk.stopped = true;
      break;
    }
    const git_tree_entry* child = git_tree_entry_byindex(tree, i);
    const std::string_view name = git_tree_entry_name(child);
    if (!internal::is_valid_utf8(name) || prefix.size() + name.size() > kMaxPathBytes) continue;
    SnapshotEntry entry{.path = prefix + std::string(name),
                        .kind = kind_of(git_tree_entry_filemode(child)),
                        .oid = *git_tree_entry_id(child),
                        .depth = level};
    if (!visit(entry)) {
      walk.stopped = true;
      break;
    }
    if (entry.kind == EntryKind::kDirectory && level < depth) {
      git_tree* raw = nullptr;
      if (git_tree_lookup(&raw, repository_.get(), &entry.oid) != 0) {
        return unreadable(snapshot_.repository);
      }
      GitTree subtree(raw);
      Status walked = walk_tree(raw, entry.path + "/", level + 1, depth, visit, walk);
      if (!walked.ok()) return walked;
    }
  }
  return {};
}

Result<std::uint64_t> SnapshotReader::blob_size(const git_oid& oid) const {
  std::size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (git_odb_read_header(&size, &type, odb_.get(), &oid) != 0 || type != GIT_OBJECT_BLOB) {
    return unreadable(snapshot_.repository);
  }
  return static_cast<std::uint64_t>(size);
}

Result<GitBlob> SnapshotReader::blob(const git_oid& oid) const {
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repository_.get(), &oid) != 0) return unreadable(snapshot_.repository);
  return GitBlob(raw);
}

}  // namespace codemode::repository
