//go:build linux

// Command longrun is the workload side of bench/longrun.sh: what a long
// sandbox run does many times over, timed per batch so that a slowdown
// after N operations shows, and the sampling of what stays alive beside
// the program (omega-run, its PID 1).
//
//	longrun accept PATH                  listen on the unix socket PATH, accept and close forever
//	longrun connect [-every K] [-itimer US] PATH N
//	                                     connect N times (a SIGALRM every US µs interrupts them)
//	longrun orphans N                    leave N short-lived orphans for PID 1 to reap
//	longrun sigcount                     count SIGUSR1 until SIGUSR2, print the count
//	longrun sigsend [-pace US] PID N     send PID N SIGUSR1
//	longrun pty tput|lat N -- CMD...     CMD on a fresh terminal: its output's rate, or N echoes' latency
//	longrun sample PID                   omega-run at PID and its init stage: RSS, fds, threads, CPU
//
// Every timed command prints one line per batch (N/10 operations):
// "op=NAME i=DONE us_per_op=F ..." and bench/longrun.sh reads the first
// and last batch.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: longrun accept|connect|orphans|sigcount|sigsend|pty|sample ARGS"))
	}
	cmds := map[string]func([]string) error{
		"accept": accept, "connect": connect, "orphans": orphans,
		"sigcount": sigcount, "sigsend": sigsend, "pty": ptyRun, "sample": sample,
	}
	run, ok := cmds[os.Args[1]]
	if !ok {
		fail(fmt.Errorf("unknown command %q", os.Args[1]))
	}
	if err := run(os.Args[2:]); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "longrun:", err)
	os.Exit(1)
}
