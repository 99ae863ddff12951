//go:build linux

// Command timeline splits one omega-run start-up into phases, from the
// system calls that mark their boundaries, and reports the median of each
// phase over several runs. It drives `perf trace` (tracepoints, no ptrace
// stops), tracing only the marker calls, so that the run stays close to
// an untraced one; compare its total with hyperfine's median.
//
//	timeline [-n RUNS] [-prog true] -mode sandbox|rx|rwx -- OMEGA-RUN ARGS...
//
// The markers (entry times, milliseconds since perf started the command):
//
//	parent   the first process: its first seccomp() is libseccomp-golang's
//	         package init probing the API level, its first
//	         landlock_create_ruleset() the Landlock ABI query in buildSpec,
//	         its last memfd_create() the spec, its clone(CLONE_NEWUSER…)
//	         the start of the init stage
//	init     the init stage the CLI's constructor started early (comm
//	         "omega-run-init", reported as -mode sandbox-early: its first
//	         mount() follows the spec's arrival), or
//	         the process that execs /proc/self/exe (comm "exe"): the same
//	         seccomp() probe, then mount(), landlock_*, the seccomp()
//	         install (SECCOMP_SET_MODE_FILTER with a program), and the
//	         clone() that starts the program; an init stage in C
//	         (nsexec/cinit.c, told by its mount() before any seccomp())
//	         has no probe, and its phases are reported as -mode sandbox-c
//	program  the process whose comm is -prog after its execve
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
)

func main() {
	n := flag.Int("n", 30, "runs")
	mode := flag.String("mode", "sandbox", "sandbox, rx or rwx: which phases to look for")
	prog := flag.String("prog", "true", "comm of the program after its execve")
	verbose := flag.Bool("v", false, "say why a run is skipped")
	keep := flag.String("keep", "", "keep the perf trace of the last run in this file")
	flag.Parse()
	cmd := flag.Args()
	if len(cmd) == 0 {
		fmt.Fprintln(os.Stderr, "usage: timeline [-n RUNS] -mode sandbox|rx|rwx -- COMMAND...")
		os.Exit(2)
	}
	ms := phases(*mode, *prog)
	durs := make([][]float64, len(ms))
	var totals []float64
	tmp, err := os.CreateTemp("", "timeline-*.txt")
	if err != nil {
		fail(err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	events := "execve,clone,clone3,mount,mount_setattr,landlock_create_ruleset,landlock_restrict_self,seccomp,memfd_create,exit_group"
	bad := 0
	for i := 0; i < *n; i++ {
		args := append([]string{"trace", "-o", tmp.Name(), "-e", events, "-f", "--"}, cmd...)
		c := exec.Command("perf", args...)
		c.Stdout, c.Stderr = nil, nil
		_ = c.Run() // perf 6.1 may crash on exit on newer kernels; the file is complete
		evs, err := parse(tmp.Name())
		if err != nil {
			fail(err)
		}
		r := findRoles(evs, *prog)
		if i == 0 && *mode == "sandbox" && r.init == earlyInit {
			ms = phases("sandbox-early", *prog)
			durs = make([][]float64, len(ms))
		} else if i == 0 && *mode == "sandbox" && cInit(evs, r) {
			ms = phases("sandbox-c", *prog)
			durs = make([][]float64, len(ms))
		}
		ts, ok := markerTimes(ms, evs, r, i+1, *verbose)
		if !ok {
			bad++
			continue
		}
		for j := 1; j < len(ms); j++ {
			durs[j] = append(durs[j], ts[j]-ts[j-1])
		}
		totals = append(totals, ts[len(ts)-1])
	}
	if *keep != "" {
		if data, err := os.ReadFile(tmp.Name()); err == nil {
			_ = os.WriteFile(*keep, data, 0o644)
		}
	}
	if len(totals) == 0 {
		fail(fmt.Errorf("no run had every marker (%d runs); keep one with -keep and check", bad))
	}
	printTable(*mode, ms, durs, totals, bad)
}

// markerTimes finds each marker in one run's events; ok is false when one
// is missing or comes before the one ahead of it (verbose says which).
func markerTimes(ms []marker, evs []event, r roles, run int, verbose bool) (ts []float64, ok bool) {
	ts = make([]float64, len(ms))
	for j, m := range ms {
		t, found := m.find(evs, r)
		if !found || (j > 0 && t < ts[j-1]) {
			if verbose {
				fmt.Fprintf(os.Stderr, "timeline: run %d: marker %q missing or out of order (found %v, at %.3f ms)\n", run, m.label, found, t)
			}
			return ts, false
		}
		ts[j] = t
	}
	return ts, true
}

// printTable writes the markdown table: each phase's median and IQR, and
// its share of the median total.
func printTable(mode string, ms []marker, durs [][]float64, totals []float64, bad int) {
	fmt.Printf("| phase (%s, %d runs under perf trace%s) | median ms | IQR ms | share |\n", mode, len(totals), skipped(bad))
	fmt.Printf("|---|--:|--:|--:|\n")
	tot := med(totals)
	for j := 1; j < len(ms); j++ {
		m := med(durs[j])
		fmt.Printf("| %s | %.2f | %.2f | %.0f%% |\n", ms[j].label, m, iqr(durs[j]), 100*m/tot)
	}
	fmt.Printf("| **total, up to the last exit_group** | **%.2f** | %.2f | |\n", tot, iqr(totals))
}

func skipped(bad int) string {
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf(", %d runs without every marker skipped", bad)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "timeline:", err)
	os.Exit(1)
}
