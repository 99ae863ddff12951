//go:build linux

// Command llprobe is an experiment for bench/PROFILE.md: it restricts
// itself with a Landlock ruleset like omega-run's (everything readable and
// executable, writes only below the given roots) and execs a command, so
// that the cost of Landlock on a workload can be compared between two
// ways of writing the same policy:
//
//	llprobe -read handled   -w DIR... -- COMMAND   read/execute rights handled, granted on "/"
//	llprobe -read unhandled -w DIR... -- COMMAND   read/execute rights not handled at all
//
// Both allow the same reads; the second spares the kernel the walk up to
// "/" that every open for reading needs to find the rule granting it.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	read := flag.String("read", "handled", "handled or unhandled")
	var writable list
	flag.Var(&writable, "w", "writable root (repeatable)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: llprobe -read handled|unhandled -w DIR... -- COMMAND...")
		os.Exit(2)
	}
	cfg := landlock.V5.BestEffort()
	var rules []landlock.Rule
	switch *read {
	case "handled":
		rules = append(rules, landlock.RODirs("/"))
	case "unhandled":
		readExec := llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
		c := landlock.Config{HandledAccessFS: landlock.V5.HandledAccessFS &^ landlock.AccessFSSet(readExec)}
		cfg = c.BestEffort()
	default:
		fail(fmt.Errorf("-read %q: want handled or unhandled", *read))
	}
	rules = append(rules, landlock.RWDirs(writable...).WithRefer().WithIoctlDev())
	if err := cfg.RestrictPaths(rules...); err != nil {
		fail(err)
	}
	args := flag.Args()
	path := args[0]
	if !strings.Contains(path, "/") {
		path = "/bin/" + path
	}
	fail(syscall.Exec(path, args, os.Environ()))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "llprobe:", err)
	os.Exit(1)
}
