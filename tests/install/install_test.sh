#!/usr/bin/env bash
# `cmake --install` of this build into a fresh prefix, then what a user does with it: build the
# C++ example (examples/catalog_total.cc) against the installed tree through the CMake package and
# through pkg-config and run both; run the installed `codemode` (its --version and the README's
# first example); move the whole prefix elsewhere and run it again. Nothing may name the build tree.
#   install_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source_dir=$1 build_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

fail() { echo "install_test: $*" >&2; exit 1; }
# shellcheck source=tests/install/expect.sh
source "$source_dir/tests/install/expect.sh"

prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" --strip > "$work/install.log"
# The worker's directory carries the library's MAJOR.MINOR.
version=$(sed -n 's/.*kVersion\[\] = "\([0-9.]*\)".*/\1/p' "$prefix/include/codemode/version.h")
worker_rel=libexec/codemode/${version%.*}/codemode-worker
for file in bin/codemode "$worker_rel" "$worker_rel.selfhosted" \
            include/codemode/code_mode.h include/codemode/version.h; do
  [ -f "$prefix/$file" ] || fail "not installed: $file"
done
libdir=$(dirname "$(find "$prefix" -name 'libcodemode.so.*.*.*' -print -quit)")
[ "$libdir" != . ] || fail "no libcodemode.so.MAJOR.MINOR.PATCH installed"
soname=$(readelf -d "$libdir"/libcodemode.so.*.*.* | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ "$soname" =~ ^libcodemode\.so\.[0-9]+\.[0-9]+$ ]] || fail "soname is '$soname'"
[ -f "$libdir/cmake/codemode/codemodeConfig.cmake" ] || fail "no CMake package"
[ -f "$libdir/pkgconfig/codemode.pc" ] || fail "no pkg-config file"
# Every function and object the library defines in namespace codemode, its internal namespaces
# aside, is exported: a public declaration without CODEMODE_EXPORT fails here, not in a user's link.
# (Inline members a header defines are compiled by the user and need no export.)
public_symbols() {  # nm output of strong definitions, demangled, in codemode:: but not internal
  nm -C --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ { $1 = ""; $2 = ""; print substr($0, 3) }' |
    grep -E '^codemode::[A-Za-z_]' | grep -vE '^codemode::(internal|repository|worker)::' | sort -u
}
for archive in libcodemode.a libcodemode_repository.a libcodemode_workflow.a; do
  [ -f "$build_dir/$archive" ] || fail "no $archive in the build"
done
public_symbols "$build_dir"/libcodemode.a "$build_dir"/libcodemode_repository.a \
  "$build_dir"/libcodemode_workflow.a > "$work/defined.txt"
[ -s "$work/defined.txt" ] || fail "no public symbol found in the static libraries"
nm -DC --defined-only "$libdir"/libcodemode.so.*.*.* | cut -d' ' -f3- | sort -u > "$work/exported.txt"
hidden=$(comm -23 "$work/defined.txt" "$work/exported.txt")
[ -z "$hidden" ] || fail "declared in the public API but hidden in libcodemode.so: $hidden"

# The installed files must not lead back to the build: no build-tree path in any of them.
if grep -rlF "$build_dir" "$prefix"; then fail "the files above name the build tree"; fi

# 1. CMake: find_package(codemode CONFIG) -> codemode::codemode.
cmake -S "$source_dir/tests/install/consumer" -B "$work/cmake-consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCODEMODE_EXAMPLE="$source_dir/examples/catalog_total.cc" \
  > "$work/cmake-consumer.log"
cmake --build "$work/cmake-consumer" > "$work/cmake-consumer-build.log"
# (Read whole before matching: grep -q would stop reading, and pipefail count ldd's SIGPIPE.)
loaded=$(ldd "$work/cmake-consumer/catalog_total")
grep -qF "$libdir/libcodemode.so" <<<"$loaded" ||
  fail "the CMake consumer does not load the installed libcodemode: $loaded"
expect_total "the CMake consumer" "$("$work/cmake-consumer/catalog_total")"

# 2. pkg-config.
export PKG_CONFIG_PATH=$libdir/pkgconfig
worker=$(pkg-config --variable=worker codemode)
[ "$(realpath "$worker")" = "$prefix/$worker_rel" ] ||
  fail "pkg-config's worker variable is not the installed worker: $worker"
mkdir "$work/pc-consumer"
# shellcheck disable=SC2046 # pkg-config's flags are words
g++ -std=c++20 -o "$work/pc-consumer/catalog_total" "$source_dir/examples/catalog_total.cc" \
  $(pkg-config --cflags --libs codemode) -Wl,-rpath,"$(pkg-config --variable=libdir codemode)"
expect_total "the pkg-config consumer" "$("$work/pc-consumer/catalog_total")"

# 3. The installed command: its version names the worker it runs, and the README's example runs.
check_cli() {  # check_cli PREFIX
  local cli=$1/bin/codemode examples=$1/share/doc/codemode/examples/catalog
  expect_version_names_worker "$("$cli" --version)" "$1/$worker_rel" "$1/$worker_rel"
  expect_total "the installed codemode" "$(cd "$examples" && "$cli" run total.js \
    --input '{"skus":["ab","cde"]}' --tools tools.json)"
}
check_cli "$prefix"
# 4. Relocated: the worker is found relative to the command and to the library, wherever the
# tree is.
mv "$prefix" "$work/moved"
check_cli "$work/moved"
expect_total "the pkg-config consumer, the library moved" \
  "$(LD_LIBRARY_PATH="$work/moved/${libdir#"$prefix"/}" "$work/pc-consumer/catalog_total")"
echo "install_test: passed"
