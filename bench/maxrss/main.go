//go:build linux

// Command maxrss runs a command and reports the peak resident set size of
// the largest process in its tree.
//
//	maxrss [-label NAME] [-n RUNS] -- COMMAND [ARGS...]
//	maxrss -touch MIB
//
// What it measures. The kernel keeps, per process, the high-water mark of
// its RSS (signal->maxrss, kept across execve), and the largest value of
// every child it has waited for (signal->cmaxrss). When a process is
// reaped, max(maxrss, cmaxrss) of the dead child is folded into the
// waiter's cmaxrss. So after wait, getrusage(RUSAGE_CHILDREN).ru_maxrss is
// the peak RSS of the single largest process among every descendant that
// was waited for, transitively: omega-run's parent, its re-executed init
// stage (PID 1 of the new pid namespace), the program, and whatever the
// program or PID 1 reaped, orphans included (PID 1 reaps them; when PID 1
// exits, the kernel's zap_pid_ns_processes waits for the rest on its
// behalf). It is not the sum over the tree. Processes that escape the tree
// (re-parented to a subreaper or the host's init) are not covered.
//
// Each run is a fresh child; its own figure is the rusage that wait4
// returns for it (the same max(maxrss, cmaxrss)), so per-run values can be
// reported. After the last run the RUSAGE_CHILDREN figure, which must equal
// the largest per-run value, is printed as well.
//
// The output is one JSON object on stdout:
//
//	{"label":"...","runs_kib":[...],"children_kib":N}
//
// -touch MIB allocates and touches MIB MiB and exits; run.sh uses it to
// check that RUSAGE_CHILDREN sees descendants reaped inside a pid namespace.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

type result struct {
	Label       string  `json:"label"`
	RunsKiB     []int64 `json:"runs_kib"`
	ChildrenKiB int64   `json:"children_kib"`
}

func main() {
	label := flag.String("label", "", "name of this measurement (default: the command)")
	runs := flag.Int("n", 1, "number of runs")
	touch := flag.Int("touch", 0, "allocate and touch this many MiB, then exit")
	flag.Parse()
	if *touch > 0 {
		touchMiB(*touch)
		return
	}
	args := flag.Args()
	if len(args) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: maxrss [-label NAME] [-n RUNS] -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	r := result{Label: *label}
	if r.Label == "" {
		r.Label = strings.Join(args, " ")
	}
	for i := 0; i < *runs; i++ {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "maxrss: %s: %v\n", r.Label, err)
			os.Exit(1)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		r.RunsKiB = append(r.RunsKiB, ru.Maxrss)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		fmt.Fprintf(os.Stderr, "maxrss: getrusage: %v\n", err)
		os.Exit(1)
	}
	r.ChildrenKiB = ru.Maxrss
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		os.Exit(1)
	}
}

// touchMiB makes this process's RSS grow by about n MiB.
func touchMiB(n int) {
	buf := make([]byte, n<<20)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	if buf[len(buf)-1] != 0 {
		os.Exit(1)
	}
}
