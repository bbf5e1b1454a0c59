#!/usr/bin/env bash
# The Debian packages on a clean Debian 12: scripts/package builds them from this build; a fresh
# minimal bookworm made by debootstrap installs them with apt (which must find every dependency
# they declare), then `codemode --version` and the README's first example run in it. The system is
# entered with chroot in new mount and pid namespaces, so its /proc and every process started in
# it end with the test; the directory is deleted.
#   debian_package_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
# Needs root, debootstrap, and this machine's Debian mirrors (copied from its apt sources).
set -euo pipefail
source_dir=$1 build_dir=$2
work=$(realpath -m -- "$3")  # absolute and normal: mounts below it are matched by prefix
fail() { echo "debian_package_test: $*" >&2; exit 1; }
# shellcheck source=tests/install/expect.sh
source "$source_dir/tests/install/expect.sh"
[ "$(id -u)" = 0 ] || { echo "debian_package_test: skipped: needs root (debootstrap, chroot)"; exit 77; }
# Every mount is made in a private mount namespace and ends with it; should one remain anyway (a
# run killed mid-way on another kernel), it is unmounted before anything is deleted, and the
# deletion never crosses into another file system.
remove_work() {
  local mounts
  mounts=$(findmnt -Rrno TARGET --target "$work" 2>/dev/null |
           awk -v below="$work/" 'index($0, below) == 1' | sort -r || true)
  [ -z "$mounts" ] || xargs -r -d '\n' umount -l <<<"$mounts"
  rm -rf --one-file-system "$work"
}
remove_work
mkdir -p "$work"
trap remove_work EXIT

"$source_dir/scripts/package" --build "$build_dir" --out "$work/packages" > "$work/packages.txt"
for name in libcodemode0.1 codemode libcodemode-dev; do
  grep -q "/${name}_[^/]*\.deb$" "$work/packages.txt" || fail "no $name package"
done

# The first mirror of this machine's apt sources (deb822 or one-line form).
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] ||
  mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' /etc/apt/sources.list | head -1)
root=$work/root
unshare --mount --propagation private \
  debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" \
  > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
# The same suites as this machine (updates, security), so the versions the packages were built
# against can be installed; its name resolution; no service may start.
rm -f "$root/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
mkdir "$root/packages"
cp "$work"/packages/*.deb "$root/packages/"

in_root() {
  unshare --mount --pid --fork --mount-proc="$root/proc" chroot "$root" /usr/bin/env -i \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
}
in_root apt-get update -q > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update"; }
in_root sh -c 'apt-get install -y -q --no-install-recommends /packages/*.deb' >> "$work/apt.log" 2>&1 ||
  { tail -30 "$work/apt.log" >&2; fail "the packages do not install on a clean Debian 12"; }

version=$(in_root codemode --version)
echo "$version"
# The worker's directory carries the library's MAJOR.MINOR.
release=$(head -1 <<<"$version" | cut -d' ' -f2)
worker=/usr/libexec/codemode/${release%.*}/codemode-worker
expect_version_names_worker "$version" "$root$worker" "$worker"

outcome=$(in_root sh -c 'cd /usr/share/doc/codemode/examples/catalog &&
  codemode run total.js --input "{\"skus\":[\"ab\",\"cde\"]}" --tools tools.json')
echo "$outcome"
expect_total "the README example on the clean system" "$outcome"
echo "debian_package_test: passed"
