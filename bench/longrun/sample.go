//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sample prints omega-run at PID and its init stage (its child named
// omega-run-init, when there is one): RSS, open fds, threads and CPU
// time, one line each.
func sample(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: sample PID")
	}
	pid, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	if err := sampleOne("outer", pid); err != nil {
		return err
	}
	if init := initStage(pid); init > 0 {
		return sampleOne("pid1", init)
	}
	return nil
}

func sampleOne(role string, pid int) error {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return err
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return err
	}
	field := func(name string) string {
		for l := range strings.Lines(string(status)) {
			if v, ok := strings.CutPrefix(l, name+":"); ok {
				return strings.Fields(v)[0]
			}
		}
		return "?"
	}
	// utime and stime: fields 14 and 15, the 12th and 13th after comm.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	fmt.Printf("op=sample role=%s rss_kb=%s fds=%d threads=%s cpu_ticks=%d\n", role, field("VmRSS"), len(fds), field("Threads"), ut+st)
	return nil
}

// initStage is pid's child named omega-run-init: any of pid's threads
// may have started it (Go's runtime runs the launch on any).
func initStage(pid int) int {
	kids, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var all []string
	for _, f := range kids {
		b, _ := os.ReadFile(f)
		all = append(all, strings.Fields(string(b))...)
	}
	for _, k := range all {
		c, _ := strconv.Atoi(k)
		if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", c)); strings.TrimSpace(string(comm)) == "omega-run-init" {
			return c
		}
	}
	return 0
}
