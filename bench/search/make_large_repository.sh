#!/usr/bin/env bash
# Makes one large git repository at OUT_DIR for benchmarking the repository tools (listing, search
# and reads over a realistically sized, packed repository): FILES (default 10000) C-like text files
# of 40 to 200 lines spread over 100 directories (pkg042/module_0042_17.c is file 1742: directory
# i % 100, number i / 100 within it), about 5 KB each (about 50 MB for 10000 files), in one commit
# with fixed author, committer and date, then `git gc` so the objects are packed.
# Content is a pure function of the file index (one awk process, its own integer generator rather
# than awk's rand(), so mawk and gawk agree), so the commit id depends only on FILES:
#   - the rare identifier needle_token_xyz is in exactly the files with i % 200 == 137 (0.5%);
#   - the common word `return` is in every file except those with i % 10 == 3 (90%).
# git runs with HOME and XDG_CONFIG_HOME pointed at an empty temporary directory and
# GIT_CONFIG_NOSYSTEM=1, so the user's configuration never matters. Prints the elapsed time on stderr.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OUT_DIR [FILES=10000]   (OUT_DIR must not exist or be empty)" >&2
  exit 2
fi
files=${2:-10000}
if ! [[ $files =~ ^[1-9][0-9]{0,6}$ ]]; then
  echo "$0: FILES must be a positive integer below 10000000, not '$files'" >&2
  exit 2
fi
if [[ -e $1 ]]; then
  if [[ ! -d $1 || -n $(ls -A -- "$1") ]]; then
    echo "$0: $1 exists and is not an empty directory; refusing to write into it" >&2
    exit 1
  fi
else
  mkdir -p -- "$1"
fi
out=$(cd -- "$1" && pwd -P)
start=$(date +%s.%N)

unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
  GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM \
  GIT_TEMPLATE_DIR GIT_CEILING_DIRECTORIES GIT_NAMESPACE GIT_COMMON_DIR
HOME=$(mktemp -d)
export HOME
trap 'rm -rf -- "$HOME"' EXIT
export XDG_CONFIG_HOME=$HOME/.config
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Bench Author" GIT_AUTHOR_EMAIL="author@example.invalid"
export GIT_COMMITTER_NAME="Bench Committer" GIT_COMMITTER_EMAIL="committer@example.invalid"
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
export LC_ALL=C TZ=UTC
# gc.auto=0: otherwise the commit of ~10000 loose objects starts a background auto gc, which makes
# the explicit gc below fail with "gc is already running".
g() { git -c init.defaultBranch=main -c core.autocrlf=false -c gc.auto=0 -c maintenance.auto=false "$@"; }

g init -q "$out"

ndirs=$((files < 100 ? files : 100))
for ((d = 0; d < ndirs; d++)); do printf '%s/pkg%03d\n' "$out" "$d"; done | xargs mkdir -p

awk -v out="$out" -v files="$files" '
  # Park-Miller generator: the product stays below 2^53, so it is exact in any awk.
  function rnd(n) { seed = (seed * 16807) % 2147483647; return seed % n }
  function pick(list,   k) { k = split(list, w, " "); return w[rnd(k) + 1] }
  function emit(s) { print s > path; lines++ }
  function statement(   v, a, b) {
    v = pick(vars); a = pick(vars); b = rnd(97) + 1
    k = rnd(8)
    if (k == 0) return "    " v " = " a " + " b ";"
    if (k == 1) return "    " v " = " pick(verbs) "_" pick(nouns) "(" a ", " b ");"
    if (k == 2) return "    if (" a " > " b ") " v " -= " a " % " b ";"
    if (k == 3) return "    /* " pick(verbs) " the " pick(nouns) " before the " pick(nouns) " is ready, or the " pick(nouns) " goes stale */"
    if (k == 4) return "    " v " ^= (" a " << " (b % 13) ") | (" a " >> 3);"
    if (k == 5) return "    for (i = 0; i < " b "; i++) " v " += table_" fileno "[i % 16];"
    if (k == 6) return "    " pick(nouns) "->" v " = " a ";"
    return "    " v " = (" a " * " b ") & 0x" sprintf("%04x", rnd(65536)) ";"
  }
  BEGIN {
    verbs = "init parse scan load store flush reset merge split check update resolve encode decode"
    nouns = "buffer node table entry cursor header packet record token stream block cache index"
    vars  = "count offset length value state limit total width depth mask flags result"
    types = "int long unsigned size_t uint32_t int64_t"
    for (i = 0; i < files; i++) {
      dir = i % 100; fileno = int(i / 100)
      path = sprintf("%s/pkg%03d/module_%04d_%02d.c", out, dir, dir, fileno)
      seed = (i * 7919 + 104729) % 2147483647; if (seed == 0) seed = 1; rnd(2); rnd(2)
      target = 40 + rnd(153)          # the last function overshoots it by at most 8 lines
      has_return = (i % 10 != 3); has_needle = (i % 200 == 137)
      lines = 0
      emit(sprintf("/* pkg%03d/module_%04d_%02d.c: generated benchmark source, file %d. */", dir, dir, fileno, i))
      emit("#include <stdint.h>")
      emit("#include <stdlib.h>")
      emit(sprintf("#include \"pkg%03d/common.h\"", dir))
      emit("")
      emit(sprintf("static %s table_%d[16];", pick(types), fileno))
      emit("")
      nf = 0
      while (lines < target) {
        name = sprintf("%s_%s_%d_%d", pick(verbs), pick(nouns), i, nf++)
        type = has_return ? pick(types) : "void"
        emit(sprintf("/* %s: %s the %s, then %s its %s; the caller holds the %s lock. */", name, pick(verbs), pick(nouns), pick(verbs), pick(nouns), pick(nouns)))
        emit(sprintf("%s %s(struct %s *%s, %s %s)", type, name, pick(nouns), pick(nouns), pick(types), pick(vars)))
        emit("{")
        emit("    long count = 0, offset = 0, length = 0, value = 0, state = 0, limit = 0, i;")
        emit("    long total = 0, width = 0, depth = 0, mask = 0, flags = 0, result = 0;")
        body = 3 + rnd(10)
        for (s = 0; s < body && lines < target - 3; s++) emit(statement())
        if (has_needle && nf == 1) emit("    needle_token_xyz(&" pick(vars) ");")
        if (has_return) emit("    return (" type ")" pick(vars) ";")
        emit("}")
        emit("")
      }
      close(path)
    }
  }'

g -C "$out" add -A
g -C "$out" commit -q -m "import $files generated files"
g -C "$out" gc -q

end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v n="$files" -v p="$out" \
  'BEGIN { printf "make_large_repository.sh: %d files in %s, %.1f s\n", n, p, e - s }' >&2
