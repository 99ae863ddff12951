// Command perfsum summarises a sampled CPU profile of many launches
// (`perf record -g` then `perf script`) into milliseconds of CPU per
// launch, by process and by what the samples were doing.
//
//	perf record -e cpu-clock -F 10000 -a -g -o perf.data -- sh -c 'for i in $(seq 200); do omega-run -- /bin/true; done'
//	perf script -i perf.data | perfsum -runs 200 -comms omega-run,exe,true
//
// Each sample is put in one category: for kernel samples, the system call
// or exception it was taken in (execve, clone, exit, page faults by the
// faulting object, …); for user samples, the object and, in Go code, the
// package (runtime, blackfriday, …). Only the listed comms count: the
// launcher keeps "omega-run" (also in a forked child before it execs),
// the re-executed init stage is "exe", the program its own name.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type sample struct {
	comm   string
	period float64 // ns
	frames []frame // innermost first
}

type frame struct{ sym, dso string }

var (
	headRE  = regexp.MustCompile(`^(\S.*?)\s+\d+(?:/\d+)?\s+\[\d+\]\s+[0-9.]+:\s+(\d+)\s+\S+:`)
	frameRE = regexp.MustCompile(`^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$`)
)

func main() {
	runs := flag.Int("runs", 1, "number of launches recorded")
	comms := flag.String("comms", "omega-run,exe,true", "comma-separated comms to count, in display order")
	top := flag.Int("top", 12, "categories shown per comm")
	flag.Parse()
	want := strings.Split(*comms, ",")
	byComm, total, err := tally(os.Stdin, want)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfsum:", err)
		os.Exit(1)
	}
	printTable(want, byComm, total, *runs, *top)
}

// tally reads perf script output and sums the sample periods (ns) of the
// wanted comms by category, and in total.
func tally(r io.Reader, want []string) (byComm map[string]map[string]float64, total map[string]float64, err error) {
	byComm = map[string]map[string]float64{}
	total = map[string]float64{}
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	var cur *sample
	flush := func() {
		if cur == nil || !contains(want, cur.comm) {
			cur = nil
			return
		}
		cat := classify(cur.frames)
		if byComm[cur.comm] == nil {
			byComm[cur.comm] = map[string]float64{}
		}
		byComm[cur.comm][cat] += cur.period
		total[cur.comm] += cur.period
		cur = nil
	}
	for in.Scan() {
		line := in.Text()
		if m := headRE.FindStringSubmatch(line); m != nil {
			flush()
			p, _ := strconv.ParseFloat(m[2], 64)
			cur = &sample{comm: m[1], period: p}
			continue
		}
		if m := frameRE.FindStringSubmatch(line); m != nil && cur != nil {
			sym := m[1]
			if i := strings.LastIndex(sym, "+0x"); i > 0 {
				sym = sym[:i]
			}
			cur.frames = append(cur.frames, frame{sym: sym, dso: m[2]})
		}
	}
	flush()
	return byComm, total, in.Err()
}

// printTable writes the markdown table: per comm its top categories in
// milliseconds per launch, the rest as (other), and the totals.
func printTable(want []string, byComm map[string]map[string]float64, total map[string]float64, runs, top int) {
	perRun := func(ns float64) float64 { return ns / 1e6 / float64(runs) }
	fmt.Printf("| process (comm) | where | CPU ms per launch | share of the process |\n|---|---|--:|--:|\n")
	var all float64
	for _, c := range want {
		cats := byComm[c]
		if cats == nil {
			continue
		}
		type kv struct {
			k string
			v float64
		}
		var list []kv
		for k, v := range cats {
			list = append(list, kv{k, v})
		}
		sort.Slice(list, func(i, j int) bool { return list[i].v > list[j].v })
		rest := 0.0
		for i, x := range list {
			if i >= top {
				rest += x.v
				continue
			}
			fmt.Printf("| %s | %s | %.2f | %.0f%% |\n", c, x.k, perRun(x.v), 100*x.v/total[c])
		}
		if rest > 0 {
			fmt.Printf("| %s | (other) | %.2f | %.0f%% |\n", c, perRun(rest), 100*rest/total[c])
		}
		fmt.Printf("| **%s** | **total** | **%.2f** | |\n", c, perRun(total[c]))
		all += total[c]
	}
	fmt.Printf("| **all** | **CPU per launch** | **%.2f** | |\n", perRun(all))
}

// classify names what a sample was doing.
func classify(fs []frame) string {
	// The outermost kernel entry decides for kernel samples.
	for i := len(fs) - 1; i >= 0; i-- {
		f := fs[i]
		if f.dso != "[kernel.kallsyms]" {
			continue
		}
		switch {
		case strings.HasPrefix(f.sym, "__x64_sys_") || strings.HasPrefix(f.sym, "__do_sys_"):
			return "kernel: " + syscallGroup(strings.TrimPrefix(strings.TrimPrefix(f.sym, "__x64_sys_"), "__do_sys_"))
		case f.sym == "asm_exc_page_fault":
			return "kernel: page faults in " + userObject(fs[i+1:])
		case f.sym == "ret_from_fork" || f.sym == "ret_from_fork_asm":
			return "kernel: new task start (ret_from_fork)"
		case strings.HasPrefix(f.sym, "asm_sysvec_") || strings.HasPrefix(f.sym, "asm_common_interrupt"):
			return "kernel: interrupts, timers, IPIs"
		case strings.HasPrefix(f.sym, "irqentry_exit") || strings.Contains(f.sym, "exit_to_user_mode"):
			return "kernel: return to user (signals, resched)"
		}
	}
	if len(fs) > 0 && fs[0].dso == "[kernel.kallsyms]" {
		return "kernel: other"
	}
	return "user: " + userObject(fs)
}

// userObject names the innermost user-space frame's object, splitting Go
// code by package.
func userObject(fs []frame) string {
	for _, f := range fs {
		if f.dso == "[kernel.kallsyms]" {
			continue
		}
		switch {
		case strings.Contains(f.dso, "ld-linux"):
			return "ld.so (relocation, CPU feature probing)"
		case strings.Contains(f.dso, "libc.so"):
			return "libc"
		case strings.Contains(f.dso, "libseccomp"):
			return "libseccomp"
		case f.dso == "[unknown]" || f.dso == "[vdso]":
			continue
		}
		return goPackage(f.sym, f.dso)
	}
	return "unknown"
}

func goPackage(sym, dso string) string {
	base := dso[strings.LastIndex(dso, "/")+1:]
	if !strings.Contains(sym, ".") {
		return base + " (C or assembly: " + sym + ")"
	}
	pkg := sym
	// Trim the function: the package path ends at the first '.' after the last '/'.
	slash := strings.LastIndex(pkg, "/")
	if dot := strings.Index(pkg[slash+1:], "."); dot >= 0 {
		pkg = pkg[:slash+1+dot]
	}
	switch {
	case pkg == "runtime" || strings.HasPrefix(pkg, "internal/runtime") || pkg == "internal/cpu" || pkg == "internal/bytealg" || pkg == "aeshashbody":
		return "Go runtime"
	case strings.HasPrefix(pkg, "github.com/russross/blackfriday"):
		return "Go: blackfriday (init)"
	}
	if i := strings.Index(pkg, "/"); i > 0 && strings.Contains(pkg[:i], ".") {
		return "Go: " + pkg
	}
	return "Go std: " + pkg
}

func syscallGroup(name string) string {
	switch name {
	case "execve", "execveat":
		return "execve"
	case "clone", "clone3", "vfork", "fork":
		return "clone"
	case "exit", "exit_group":
		return "exit (mm and namespace teardown)"
	case "mmap", "munmap", "mprotect", "madvise", "brk", "mremap":
		return "mmap/munmap/mprotect/madvise"
	case "mount", "mount_setattr", "umount2", "open_tree", "move_mount", "fsopen", "fsmount", "fsconfig":
		return "mount"
	case "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self":
		return "landlock"
	case "futex", "sched_yield", "nanosleep", "clock_nanosleep":
		return "futex/sched_yield/nanosleep"
	case "wait4", "waitid":
		return "wait"
	case "openat", "open", "read", "pread64", "write", "close", "newfstatat", "statx", "readlinkat", "getdents64", "close_range", "fcntl", "ioctl", "mkdirat", "lseek":
		return "file syscalls (" + name + ")"
	}
	return name
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
