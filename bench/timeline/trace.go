//go:build linux

package main

import (
	"bufio"
	"os"
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
