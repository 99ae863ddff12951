//go:build linux && cgo

// Command bpfdump writes the BPF program omega-run compiles for a seccomp
// profile (default: "default") to stdout, as the raw struct sock_filter
// array that bubblewrap's --seccomp FD reads. bench/run.sh uses it to give
// the "equivalent isolation" bubblewrap variant the very filter omega-run
// installs.
//
//	bpfdump [PROFILE] > filter.bpf
package main

import (
	"fmt"
	"os"

	"github.com/omega-run/omega-run/seccomp"
)

func main() {
	name := "default"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	p, err := seccomp.Resolve(name)
	if err != nil {
		fail(err)
	}
	prog, _, err := seccomp.Compile(p)
	if err != nil {
		fail(err)
	}
	if prog == nil {
		fail(fmt.Errorf("profile %q has no filter", name))
	}
	if _, err := os.Stdout.Write(prog.BPF); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "bpfdump: %s: %d instructions\n", name, prog.Len())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bpfdump:", err)
	os.Exit(1)
}
