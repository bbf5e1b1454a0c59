#!/usr/bin/env bash
# Makes the git repositories that the repository-tool tests run against, under OUT_DIR (an existing,
# empty directory): code/alpha (a worktree with tags, a branch, binary, large, symlinked and UTF-8
# files), code/empty (no commits), code/group/bare.git (bare clone), code/withsub (a submodule),
# code/notarepo (plain directory), code/deep/.../deeprepo (deeper than a walk of depth 4),
# code/escape (a symlink to /), code/shared (clone --shared, so objects/info/alternates) and
# other/secretrepo (outside the code root, must never be reachable).
# It uses the git CLI only, with fixed names, emails and dates, and with HOME and XDG_CONFIG_HOME
# pointed at an empty directory (OUT_DIR/.home, removed at the end) and GIT_CONFIG_NOSYSTEM=1, so
# the same commit ids come out on every machine whatever the user's git configuration.
# Prints nothing on success.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUT_DIR   (OUT_DIR must be an existing, empty directory)" >&2
  exit 2
fi
if [[ ! -d $1 ]]; then
  echo "$0: $1 is not an existing directory" >&2
  exit 1
fi
if [[ -n $(ls -A -- "$1") ]]; then
  echo "$0: $1 is not empty; refusing to write into it" >&2
  exit 1
fi
out=$(cd -- "$1" && pwd -P)
code=$out/code

# Isolation: nothing from the caller's environment or configuration may reach git.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
  GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM \
  GIT_TEMPLATE_DIR GIT_CEILING_DIRECTORIES GIT_NAMESPACE GIT_COMMON_DIR GIT_PAGER GIT_EDITOR
export HOME=$out/.home
export XDG_CONFIG_HOME=$HOME/.config
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Fixture Author" GIT_AUTHOR_EMAIL="author@example.invalid"
export GIT_COMMITTER_NAME="Fixture Committer" GIT_COMMITTER_EMAIL="committer@example.invalid"
export LC_ALL=C TZ=UTC
mkdir -p "$HOME"
trap 'rm -rf -- "$HOME"' EXIT

g() { git -c init.defaultBranch=main -c core.autocrlf=false -c core.symlinks=true "$@"; }

# Every commit and annotated tag gets the next minute after 2026-01-01T00:00:00Z.
tick=0
next_date() {
  local t=$tick
  tick=$((tick + 1))
  export GIT_AUTHOR_DATE
  GIT_AUTHOR_DATE=$(printf '2026-01-01T%02d:%02d:00Z' $((t / 60)) $((t % 60)))
  export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}
commit() { # commit REPO MESSAGE: commit everything in REPO's worktree
  next_date
  g -C "$1" add -A
  g -C "$1" commit -q -m "$2"
}
one_file_repo() { # one_file_repo DIR FILE CONTENT
  mkdir -p "$1"
  g init -q "$1"
  printf '%s' "$3" >"$1/$2"
  commit "$1" "add $2"
}

# --- code/alpha -----------------------------------------------------------------------------------
alpha=$code/alpha
mkdir -p "$alpha"
g init -q "$alpha"
mkdir -p "$alpha/src/nested/deep" "$alpha/docs" "$alpha/bin"
printf 'alpha\nbeta\ngamma\n' >"$alpha/README.md"
cat >"$alpha/src/lib.rs" <<'EOF'
//! A tiny library used as a search target.

/// The answer.
pub fn answer() -> u32 { 42 }

pub fn double(x: u32) -> u32 {
    x * 2
}
EOF
printf 'needle in a haystack\n' >"$alpha/src/nested/deep/file.txt"
seq 1 30 | awk '{ print "line " $1 }' >"$alpha/docs/guide.md"
{
  awk 'BEGIN { s = ""; for (i = 0; i < 1500; i++) s = s "m"; print s }'
  seq 1 200 | awk '{ print "row " $1 }'
} >"$alpha/medium.txt"
# All 256 byte values, 0x00 first: binary (has NULs), exactly 256 bytes.
fmt=''
for i in $(seq 0 255); do fmt+=$(printf '\\x%02x' "$i"); done
# shellcheck disable=SC2059 # the format string is the data: 256 \xNN escapes
printf "$fmt" >"$alpha/bin/blob.bin"
# About 6 MiB of "big line N".
seq 1 400000 | awk '{ print "big line " $1 }' >"$alpha/big.txt"
ln -s src/lib.rs "$alpha/link-inside"
ln -s ../../../etc/passwd "$alpha/link-outside"
printf 'h\xc3\xa9llo w\xc3\xb6rld\nzweite Zeile\n' >"$alpha/unicode.txt" # "héllo wörld", UTF-8
commit "$alpha" "initial import"
next_date
g -C "$alpha" tag -a v1.0 -m v1.0
g -C "$alpha" tag light

g -C "$alpha" checkout -q -b feature
printf 'alpha\nBETA-feature\ngamma\n' >"$alpha/README.md"
commit "$alpha" "feature: shout beta"
g -C "$alpha" checkout -q main

printf 'alpha\nbeta\ngamma2\n' >"$alpha/README.md"
printf 'changes\n' >"$alpha/CHANGELOG.md"
commit "$alpha" "gamma2 and a changelog"

# --- code/empty: initialised, no commit ----------------------------------------------------------
mkdir -p "$code/empty"
g init -q "$code/empty"

# --- code/group/bare.git: bare clone of alpha ----------------------------------------------------
mkdir -p "$code/group"
g clone -q --bare "$alpha" "$code/group/bare.git"

# --- code/withsub: superproject with alpha as a submodule at vendor/alpha ------------------------
# The submodule URL is "../alpha" (resolved against the superproject's directory, since it has no
# remote), so .gitmodules, and with it the commit id, does not depend on OUT_DIR.
withsub=$code/withsub
mkdir -p "$withsub"
g init -q "$withsub"
printf 'main file of withsub\n' >"$withsub/main.txt"
g -C "$withsub" add main.txt
g -C "$withsub" -c protocol.file.allow=always submodule add -q ../alpha vendor/alpha >/dev/null
commit "$withsub" "main.txt and the alpha submodule"

# --- code/notarepo: plain directory --------------------------------------------------------------
mkdir -p "$code/notarepo"
printf 'just a file, no repository here\n' >"$code/notarepo/plain.txt"

# --- code/deep/a/b/c/d/e/f/g/h/deeprepo: deeper than a walk depth of 4 ---------------------------
one_file_repo "$code/deep/a/b/c/d/e/f/g/h/deeprepo" x.txt $'x\n'

# --- code/escape: directory symlink leaving the root ---------------------------------------------
ln -s / "$code/escape"

# --- code/shared: clone --shared of alpha (objects/info/alternates -> alpha's objects) -----------
g clone -q --shared "$alpha" "$code/shared"

# --- other/secretrepo: outside the code root -----------------------------------------------------
one_file_repo "$out/other/secretrepo" secret.txt $'TOKEN=hunter2\n'

# --- checks --------------------------------------------------------------------------------------
if [[ -n $(g -C "$alpha" status --porcelain) ]]; then
  echo "$0: $alpha has a dirty worktree:" >&2
  g -C "$alpha" status --porcelain >&2
  exit 1
fi
