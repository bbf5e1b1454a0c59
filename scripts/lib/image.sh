# shellcheck shell=bash
# What scripts/docker-image (the worker's image) and scripts/server-image (the MCP server's) share:
# a private build context, the libraries the binaries load, the SPDX document and an offline build.
# Sourced from the repository's root, after `set -euo pipefail`.

# image_context PROGRAM DOCKER HOST: makes $context (removed on exit) with the image's root
# directory $root, and $docker_cli, the docker CLI to run against HOST (empty: the CLI's default).
image_context() {
  image_program=$1
  context=$(mktemp -d "${TMPDIR:-/tmp}/codemode-image.XXXXXX")
  trap 'rm -rf "$context"' EXIT
  # No inherited variable, and no user's ~/.docker/config.json (a context, proxies): an empty
  # configuration directory of our own.
  mkdir "$context/docker-config"
  docker_cli=(env -i DOCKER_BUILDKIT=0 "DOCKER_CONFIG=$context/docker-config" "$2")
  [ -z "$3" ] || docker_cli+=(--host "$3")
  root=$context/root
  echo "docker-config" > "$context/.dockerignore"
  # The codemode version and the commit's time (in UTC), for the labels and the SPDX document:
  # the same sources give the same document.
  version=$(git describe --always --dirty 2>/dev/null || echo unknown)
  created=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null ||
            echo 1970-01-01T00:00:00Z)
}

# image_libraries BINARY...: copies the loader and every library ldd resolves for any BINARY
# (symlinks followed) to the same path under $root; an unresolved library is an error.
image_libraries() {
  local binary libraries="" library resolved
  for binary in "$@"; do
    # Read whole, then matched: `ldd | grep -q` could end ldd with SIGPIPE, which pipefail counts.
    resolved=$(ldd "$binary")
    libraries+=$(sed -n -e 's/.*=> \(\/[^ ]*\) (.*/\1/p' \
                        -e 's/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' <<< "$resolved")$'\n'
    if grep -q "not found" <<< "$resolved"; then
      echo "$image_program: $binary has unresolved libraries" >&2; exit 1
    fi
  done
  libraries=$(sort -u <<< "$libraries" | sed '/^$/d')
  [ -n "$libraries" ] || { echo "$image_program: ldd found no libraries for $*" >&2; exit 1; }
  for library in $libraries; do
    mkdir -p "$root$(dirname "$library")"
    cp --dereference --preserve=mode "$library" "$root$library"
  done
}

# image_sbom DOCUMENT NAME NAMESPACE CODEMODE_PATH...: writes the SPDX 2.3 document of every other
# file under $root to $root/DOCUMENT (scripts/lib/spdx.py) and sets $provenance, its sha256.
image_sbom() {
  local document=$1 name=$2 namespace=$3 path
  local arguments=(--version="$version" --created="$created" --document="$document"
                   --name="$name" --namespace="$namespace"
                   --tool="codemode scripts/$image_program" --program="$image_program")
  shift 3
  for path in "$@"; do arguments+=(--codemode="$path"); done
  TZ=UTC python3 scripts/lib/spdx.py "${arguments[@]}" "$root" > "$root$document"
  provenance="sha256:$(sha256sum "$root$document" | cut -d' ' -f1)"
}

# image_build TAG OUT: builds $context/Dockerfile (which reads the build argument
# CODEMODE_PROVENANCE) and prints {"image":..., "provenance":...}, or writes it to OUT; sets $image.
image_build() {
  local result
  # The classic builder: no BuildKit daemon, no network (--network=none), FROM scratch pulls
  # nothing. The id this build made (--iidfile), not whatever the tag names by the time it is read.
  "${docker_cli[@]}" build --network=none --pull=false --quiet --iidfile "$context/iid" \
    --build-arg "CODEMODE_PROVENANCE=$provenance" --tag "$1" "$context" >/dev/null
  image=$(cat "$context/iid")
  result="{\"image\":\"$image\",\"provenance\":\"$provenance\"}"
  if [ -n "$2" ]; then echo "$result" > "$2"; else echo "$result"; fi
}
