//go:build linux

// Command floor is the smallest Go launcher: it execs its arguments. It
// measures what any Go front end pays before doing anything (exec, Go
// runtime start), in the builds bench/profile.sh compares:
//
//	CGO_ENABLED=0 go build ./bench/floor                   static
//	go build -tags floor_cgo ./bench/floor                 + cgo: ld.so, libc, pthreads
//	go build -tags floor_cgo,floor_seccomp ./bench/floor   + libseccomp-golang (its init probes the seccomp API)
//
//	floor /bin/true
package main

import (
	"os"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		os.Exit(2)
	}
	err := syscall.Exec(os.Args[1], os.Args[1:], os.Environ())
	os.Stderr.WriteString("floor: " + err.Error() + "\n")
	os.Exit(127)
}
