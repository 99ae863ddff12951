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
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

type event struct {
	ts, dur   float64 // ms; dur < 0 when unknown
	comm      string
	pid       int
	name      string
	args, ret string
}

var lineRE = regexp.MustCompile(`^\s*([0-9.]+) \(\s*(?:([0-9.]+) ms)?\s*\): (.*)/(\d+) (.*)$`)

func parse(path string) ([]event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[5])
		if strings.HasPrefix(rest, "...") {
			continue // "[continued]" halves: the entry line has the time
		}
		e := event{comm: m[3], dur: -1}
		e.ts, _ = strconv.ParseFloat(m[1], 64)
		if m[2] != "" {
			e.dur, _ = strconv.ParseFloat(m[2], 64)
		}
		e.pid, _ = strconv.Atoi(m[4])
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			continue
		}
		e.name = rest[:open]
		if close := strings.LastIndex(rest, ")"); close > open {
			e.args = rest[open+1 : close]
			e.ret = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[close+1:]), "="))
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// roles are the comms of the three processes. Threads matter: Go makes
// system calls on whichever thread runs the goroutine (os/exec clones
// from another thread, any thread may call exit_group), so a role is its
// comm, not a thread id: the parent keeps its own ("omega-run"), the init
// stage execs /proc/self/exe ("exe") or, started early by the CLI's
// constructor, names itself earlyInit; the program has its own.
type roles struct{ parent, init, program string }

const earlyInit = "omega-run-init"

func findRoles(evs []event, prog string) roles {
	r := roles{init: "exe", program: prog}
	if len(evs) > 0 {
		r.parent = evs[0].comm
	}
	// perf names a task by a comm it had at some point, or ":PID": one
	// task may show up under several names. An early init stage's tasks
	// get earlyInit up to their execve, and any task after an execve
	// (bar perf's own of the command) is the program.
	pids := map[int]bool{}
	for _, e := range evs {
		if e.comm == earlyInit {
			r.init = earlyInit
			pids[e.pid] = true
		}
	}
	execd := map[int]bool{}
	for i, e := range evs {
		switch {
		case execd[e.pid]:
			evs[i].comm = prog
		case pids[e.pid] && e.name != "execve":
			evs[i].comm = earlyInit
		}
		if e.name == "execve" && i > 0 {
			execd[e.pid] = true
		}
	}
	return r
}

// marker finds a time in one run; ok is false when it is missing.
type marker struct {
	label string
	find  func(evs []event, r roles) (float64, bool)
}

func first(role func(roles) string, name, argsHas string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		for _, e := range evs {
			if e.comm == role(r) && e.name == name && strings.Contains(e.args, argsHas) {
				return e.ts, true
			}
		}
		return 0, false
	}
}

func last(role func(roles) string, names []string, argsHas string, end bool) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.comm == role(r) && contains(names, e.name) && strings.Contains(e.args, argsHas) {
				t, ok = e.ts, true
				if end && e.dur > 0 {
					t += e.dur
				}
			}
		}
		return t, ok
	}
}

// execOf is the program's execve: the last one before the program's
// first exit_group (perf shows it under the old comm, the new one or
// ":PID").
func execOf(prog string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.name == "exit_group" && e.comm == prog {
				break
			}
			if e.name == "execve" && e.ts > 0 {
				t, ok = e.ts, true
			}
		}
		return t, ok
	}
}

// exitOf is the last exit_group of a comm: probe children (the pidfd
// check of os/exec) exit earlier under the same comm.
func exitOf(comm string, role func(roles) string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.name == "exit_group" && (comm == "" || e.comm == comm) && (role == nil || e.comm == role(r)) {
				t, ok = e.ts, true
			}
		}
		return t, ok
	}
}

var (
	parentPID = func(r roles) string { return r.parent }
	initPID   = func(r roles) string { return r.init }
)

func phases(mode, prog string) []marker {
	start := marker{"start", func([]event, roles) (float64, bool) { return 0, true }}
	// Every sandbox layout ends alike: the program, PID 1, the parent.
	sandboxEnd := []marker{
		{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
		{"PID 1 reaps the program and exits", exitOf("", initPID)},
		{"pid/mount namespace teardown, parent wakes up and exits", exitOf("", parentPID)},
	}
	switch mode {
	case "sandbox":
		return append([]marker{
			start,
			{"parent: exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
			{"parent: rest of package init, main, CLI, policy, data dirs, mount plan", first(parentPID, "landlock_create_ruleset", "")},
			{"parent: Landlock rules and warnings, seccomp program, spec into memfd", last(parentPID, []string{"memfd_create"}, "", false)},
			{"parent: os/exec start (pipes, pidfd probe, threads) up to clone", first(parentPID, "clone", "NEWUSER")},
			{"clone(NEWUSER|NEWNS|NEWPID|…), uid/gid maps, child setup up to execve", first(initPID, "execve", "")},
			{"init stage: execve, ld.so, Go runtime start, package init up to libseccomp-golang", first(initPID, "seccomp", "")},
			{"init stage: rest of package init, read spec", first(initPID, "mount", "")},
			{"init stage: mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
			{"init stage: drop capabilities, no_new_privs, Landlock", first(initPID, "seccomp", "TSYNC, uargs")},
			{"init stage: seccomp install, signal.Notify, pidfd probe, up to the program's clone", last(initPID, []string{"clone", "clone3"}, "VFORK", false)},
			{"fork of the program up to its execve", execOf(prog)},
		}, sandboxEnd...)
	case "sandbox-early":
		// The CLI's constructor forks a helper that clones the init stage
		// before the Go runtime starts (nsexec/cinit_early.c); the init
		// stage then waits for the spec on a pipe, and its first mount
		// follows the spec's arrival.
		return append([]marker{
			start,
			{"constructor: fork of the early-start helper, up to its clone of the init stage", first(parentPID, "clone", "NEWUSER")},
			{"parent: Go runtime start, package init up to libseccomp-golang (init stage: namespaces, id maps, waiting)", first(parentPID, "seccomp", "")},
			{"parent: rest of package init, main, CLI, policy, data dirs", first(parentPID, "landlock_create_ruleset", "")},
			{"parent: mount plan, Landlock rules, warnings, spec sent; init stage: spec read and decoded", first(initPID, "mount", "")},
			{"init stage (C): mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
			{"init stage (C): drop capabilities, no_new_privs, Landlock", first(initPID, "landlock_restrict_self", "")},
			{"init stage (C): fork of the program, its seccomp install, up to its execve", execOf(prog)},
		}, sandboxEnd...)
	case "rx":
		return []marker{
			start,
			{"exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
			{"rest of package init, main, CLI, policy, data dirs", first(parentPID, "landlock_create_ruleset", "")},
			{"Landlock (ABI query, rules, warnings, restrict_self)", first(parentPID, "seccomp", "TSYNC, uargs")},
			{"seccomp install, close_range, up to execve", execOf(prog)},
			{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
		}
	case "sandbox-c":
		// The init stage in C (nsexec/cinit.c): no Go runtime, no
		// libseccomp probe; its first marker is the first mount.
		return append([]marker{
			start,
			{"parent: exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
			{"parent: rest of package init, main, CLI, policy, data dirs, mount plan", first(parentPID, "landlock_create_ruleset", "")},
			{"parent: Landlock rules and warnings, seccomp program, spec into memfd", last(parentPID, []string{"memfd_create"}, "", false)},
			{"parent: os/exec start (pipes, pidfd probe, threads) up to clone", first(parentPID, "clone", "NEWUSER")},
			{"clone(NEWUSER|NEWNS|NEWPID|…), uid/gid maps, child setup up to execve", first(initPID, "execve", "")},
			{"init stage (C): execve, ld.so, constructor, read spec", first(initPID, "mount", "")},
			{"init stage (C): mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
			{"init stage (C): drop capabilities, Landlock, no_new_privs", first(initPID, "seccomp", "TSYNC, uargs")},
			{"init stage (C): seccomp install, rlimits, up to the program's fork", last(initPID, []string{"clone", "clone3"}, "", false)},
			{"fork of the program up to its execve", execOf(prog)},
		}, sandboxEnd...)
	default: // rwx
		return []marker{
			start,
			{"exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
			{"rest of package init, main, CLI, up to execve", execOf(prog)},
			{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
		}
	}
}

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

// cInit tells an init stage in C: it mounts before any seccomp() call,
// where the Go one first probes the API level (libseccomp-golang's init).
func cInit(evs []event, r roles) bool {
	for _, e := range evs {
		if e.comm != r.init {
			continue
		}
		switch e.name {
		case "mount":
			return true
		case "seccomp":
			return false
		}
	}
	return false
}

func skipped(bad int) string {
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf(", %d runs without every marker skipped", bad)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "timeline:", err)
	os.Exit(1)
}
