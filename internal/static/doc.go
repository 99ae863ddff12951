// Package static tests the release build, scripts/build-static.sh (what
// `make static` and `make dist` run): the binary has no ELF interpreter
// and no shared libraries, reports its versions, and confines a program
// in a root that holds nothing but itself, the program and /proc.
package static
