#!/bin/sh
# build-static.sh OUT — build a static, stripped omega-run for Linux with
# libseccomp linked in: no ELF interpreter, no shared libraries, so it runs
# on any Linux of its architecture, in an empty root as well.
#
# For the host's architecture it links musl, not glibc: glibc's start-up
# (CPUID probing, which traps to the hypervisor in a VM, and heavier
# pthread_create for the Go runtime's threads) costs 0.3-0.7 ms per launch
# on the benchmark machine (bench/PROFILE.md). scripts/musl-libseccomp.sh builds Debian's
# libseccomp for musl into .build/ once. A cross build (another GOARCH)
# links Debian's static glibc and libseccomp.a, as there is no musl cross
# toolchain in Debian; LIBC=glibc asks for that on the host too.
#
# `make static` and `make dist` call it, and so does internal/static's test,
# so that what is tested is what is shipped.
#
# Environment:
#   GO       the go command (default: go)
#   LIBC     musl (default for the host's architecture) or glibc
#   GOARCH   target architecture (default: the host's); another one uses
#            Debian's cross toolchain, <triplet>-gcc and the libseccomp.a of
#            libseccomp-dev:<arch>
#   LDFLAGS  extra -ldflags, e.g. the Makefile's -X main.version=…
#
# netgo and osusergo keep net and os/user in pure Go: a static glibc
# cannot dlopen NSS modules, and the linker warns about getpwnam and
# getaddrinfo otherwise (omega-run uses os/user only when HOME is unset).
set -eu

[ $# -eq 1 ] || { echo "usage: $0 OUT" >&2; exit 2; }
case $1 in /*) out=$1 ;; *) out=$PWD/$1 ;; esac
cd "$(dirname "$0")/.."

GO=${GO:-go}
host=$($GO env GOHOSTARCH)
GOARCH=${GOARCH:-$host}
case $GOARCH in
amd64) triplet=x86_64-linux-gnu ;;
arm64) triplet=aarch64-linux-gnu ;;
*) echo "build-static.sh: GOARCH $GOARCH: only amd64 and arm64 are set up" >&2; exit 1 ;;
esac
LIBC=${LIBC:-musl}
[ "$GOARCH" = "$host" ] || LIBC=glibc
extld=-static
case $LIBC in
musl)
	. scripts/musl-env.sh
	extld=$MUSL_EXTLDFLAGS
	;;
glibc) ;;
*) echo "build-static.sh: LIBC=$LIBC: musl or glibc" >&2; exit 1 ;;
esac
if [ "$LIBC" = musl ]; then
	pkg=" musl-tools gperf"
elif [ "$GOARCH" != "$host" ]; then
	CC=${CC:-$triplet-gcc}
	PKG_CONFIG_LIBDIR=/usr/lib/$triplet/pkgconfig
	export CC PKG_CONFIG_LIBDIR
	pkg=" libseccomp-dev:$GOARCH gcc-$triplet (dpkg --add-architecture $GOARCH first)"
else
	pkg=" libseccomp-dev"
fi
libdir=$(pkg-config --variable=libdir libseccomp 2>/dev/null || true)
if ! command -v "${CC:-gcc}" >/dev/null || [ -z "$libdir" ] || [ ! -f "$libdir/libseccomp.a" ]; then
	echo "build-static.sh: ${CC:-gcc} or libseccomp.a for $GOARCH not found; run: apt-get install -y$pkg" >&2
	exit 1
fi

export CGO_ENABLED=1 GOOS=linux GOARCH
exec $GO build -trimpath -tags "netgo osusergo ${BUILDTAGS-urfave_cli_no_docs}" \
	-ldflags "-s -w ${LDFLAGS:-} -linkmode external -extldflags '$extld'" \
	-o "$out" .
