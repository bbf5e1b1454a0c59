# shellcheck shell=bash
# What the install and package tests expect of an installed codemode; sourced. The sourcing
# script defines fail MESSAGE.

# expect_total WHAT OUTPUT: OUTPUT is the catalog example's outcome, the total priced.
expect_total() {
  grep -q '"status":"succeeded"' <<<"$2" && grep -q '"totalCents":500' <<<"$2" ||
    fail "$1 did not price the catalog: $2"
}

# expect_version_names_worker VERSION_TEXT WORKER_FILE SHOWN_PATH: `codemode --version` printed
# VERSION_TEXT, whose first line is the version and whose second names the worker at SHOWN_PATH by
# the build id of WORKER_FILE (the same file, seen from outside a chroot or not).
expect_version_names_worker() {
  local build_id
  grep -qx "codemode [0-9]*\.[0-9]*\.[0-9]*" <<<"$(head -1 <<<"$1")" ||
    fail "codemode --version: $1"
  build_id=$(readelf -n "$2" | sed -n 's/.*Build ID: //p')
  [ -n "$build_id" ] || fail "the installed worker has no build id"
  grep -qF "build-id $build_id  ($3)" <<<"$1" ||
    fail "codemode --version does not name the installed worker's build id $build_id: $1"
}
