# musl-env.sh — sourced (". scripts/musl-env.sh" from the module root,
# with GOARCH set: a sourced script gets no arguments in every sh). Builds
# the musl libseccomp once (scripts/musl-libseccomp.sh) and exports what
# cgo needs to compile and link against musl instead of glibc. build-static.sh uses it for the release build, `make test` for
# running unit tests on musl.
musl_dir=$PWD/.build/musl-${GOARCH:?musl-env.sh: set GOARCH}
scripts/musl-libseccomp.sh "$musl_dir" || return 1 2>/dev/null || exit 1
CC=musl-gcc
CGO_CFLAGS="-O2 -isystem $musl_dir/kernel-headers"
PKG_CONFIG_LIBDIR=$musl_dir/lib/pkgconfig
# The external linker's flags for go build -ldflags: static, and 1 MiB
# for the stacks of threads musl starts (its default is 128 KiB, glibc's
# 8 MiB); the Go runtime's threads run C code — libseccomp's compiler
# among it — on those.
MUSL_EXTLDFLAGS="-static -Wl,-z,stack-size=1048576"
export CC CGO_CFLAGS PKG_CONFIG_LIBDIR MUSL_EXTLDFLAGS
