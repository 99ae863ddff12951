#!/bin/sh
# musl-libseccomp.sh DIR — build libseccomp as a static library for musl
# into DIR (lib/libseccomp.a, include/, lib/pkgconfig/libseccomp.pc), and
# a kernel header directory for musl-gcc (DIR/kernel-headers). Prints
# nothing and does nothing when DIR already holds this version.
#
# build-static.sh links the release binary against musl rather than glibc:
# glibc's start-up runs dozens of CPUID instructions, each a trap to the
# hypervisor in a VM, and every thread the Go runtime starts through
# glibc's pthread_create costs more — 0.3-0.7 ms per launch on the
# benchmark machine (bench/PROFILE.md). Debian has no libseccomp for musl, so this
# builds the one Debian ships (same version, same patches, checked by
# hash) with musl-gcc.
#
# Needs: musl-tools, gperf (the patch regenerates the syscall table),
# curl, make, patch, xz-utils. The sources come from Debian's pool (the
# version is pinned: when Debian replaces this update there, the version
# and hashes below move with it), or from a directory LIBSECCOMP_SOURCES
# that holds the two files.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
case ${LIBSECCOMP_SOURCES:-/} in /*) ;; *) LIBSECCOMP_SOURCES=$PWD/$LIBSECCOMP_SOURCES ;; esac
# One spelling of DIR (absolute, symlinks resolved, no trailing slash), so
# that the lock and the stamp below mean one directory.
mkdir -p "$(dirname "$1")"
dir=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
version=2.5.4
debian=1+deb12u1
pool=http://deb.debian.org/debian/pool/main/libs/libseccomp
orig=libseccomp_$version.orig.tar.gz
orig_sha=d82902400405cf0068574ef3dc1fe5f5926207543ba1ae6f8e7a1576351dcbdb
deb=libseccomp_$version-$debian.debian.tar.xz
deb_sha=665fc6ad1b9887207b0af1a293a2d7975e2df503a2618d1808b970081f9672f6
stamp=$dir/.built-$version-$debian

# One build at a time (parallel test packages may each ask for it).
if command -v flock >/dev/null; then
	exec 9>"$dir.lock"
	flock 9
fi
# The stamp names the directory: libseccomp.pc holds absolute paths, so a
# copied or moved .build is built again rather than pointing elsewhere.
[ "$(cat "$stamp" 2>/dev/null)" = "$dir" ] && exit 0
tools="musl-gcc gperf make patch xz"
[ -n "${LIBSECCOMP_SOURCES:-}" ] || tools="$tools curl"
for tool in $tools; do
	command -v $tool >/dev/null || {
		echo "musl-libseccomp.sh: $tool not found; run: apt-get install -y musl-tools gperf curl make patch xz-utils" >&2
		exit 1
	}
done
arch=$(uname -m)
case $arch in
x86_64 | aarch64) ;;
*) echo "musl-libseccomp.sh: $arch: only x86_64 and aarch64 are set up" >&2; exit 1 ;;
esac

rm -rf "$dir"
mkdir -p "$dir/src" "$dir/kernel-headers"
# musl-gcc searches musl's headers only; libseccomp and nsexec need the
# kernel's (linux/, asm/, asm-generic/), which do not depend on the libc.
ln -s /usr/include/linux "$dir/kernel-headers/linux"
ln -s /usr/include/asm-generic "$dir/kernel-headers/asm-generic"
ln -s "/usr/include/$arch-linux-gnu/asm" "$dir/kernel-headers/asm"

cd "$dir/src"
fetch() { # file sha256
	if [ -n "${LIBSECCOMP_SOURCES:-}" ]; then
		cp "$LIBSECCOMP_SOURCES/$1" "$1"
	else
		curl -fsSLo "$1" "$pool/$1" || {
			echo "musl-libseccomp.sh: cannot download $pool/$1; put it in a directory named by LIBSECCOMP_SOURCES" >&2
			exit 1
		}
	fi
	echo "$2  $1" | sha256sum -c --quiet - || { echo "musl-libseccomp.sh: $1: checksum mismatch" >&2; exit 1; }
}
fetch "$orig" "$orig_sha"
fetch "$deb" "$deb_sha"
tar xzf "$orig"
cd "libseccomp-$version"
tar xJf "../$deb"
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	patch -s -p1 <"debian/patches/$p"
done <debian/patches/series

log=$dir/build.log
# The caller's compiler and linker flags are for Go (build-static.sh gets
# LDFLAGS='-X main.version=…'), not for this library.
unset CFLAGS CPPFLAGS LDFLAGS LIBS
{
	./configure CC=musl-gcc CFLAGS="-O2 -isystem $dir/kernel-headers" \
		--enable-static --disable-shared --prefix="$dir" &&
		make -C src -j"$(nproc)" &&
		make -C src install &&
		make -C include install
} >"$log" 2>&1 || { tail -20 "$log" >&2; echo "musl-libseccomp.sh: build failed, see $log" >&2; exit 1; }
mkdir -p "$dir/lib/pkgconfig"
cp libseccomp.pc "$dir/lib/pkgconfig/"
printf '%s\n' "$dir" >"$stamp"
