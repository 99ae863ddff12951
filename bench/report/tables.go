package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The report's tables, one function each.

func (r *report) startupTable() {
	ref, eq := r.startup[nBwrap], r.startup[nBwrapEq]
	r.printf("## Start-up: `… -- /bin/true`, wall time\n\n")
	r.printf("| command | median ms | IQR ms (Q1–Q3) | σ ms | min ms | runs | × bwrap [95%% CI] | × bwrap (equivalent) | target |\n")
	r.printf("|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, name := range []string{nPlain, nUnshare, nBwrap, nBwrapEq, nBwrapEqSec, nRWX, nRX, nSandbox, nRXDyn, nSandboxDyn, nRXGlibc, nSandboxGlibc} {
		xs, ok := r.startup[name]
		if !ok {
			continue
		}
		st := summarize(xs)
		ratio, ratioEq := "—", "—"
		if len(ref) > 0 && name != nBwrap {
			lo, hi := ratioCI(xs, ref)
			ratio = fmt.Sprintf("%.2f [%.2f–%.2f]", st.median/median(ref), lo, hi)
		} else if name == nBwrap {
			ratio = "1.00"
		}
		if len(eq) > 0 {
			ratioEq = fmt.Sprintf("%.2f", st.median/median(eq))
		}
		target := ""
		if t, ok := startupTargets[name]; ok && len(ref) > 0 {
			target = verdict(st.median/median(ref) <= t, fmt.Sprintf("≤ %.1f× bwrap", t))
		}
		r.printf("| %s | %.2f | %.2f (%.2f–%.2f) | %.2f | %.2f | %d | %s | %s | %s |\n",
			name, ms(st.median), ms(st.q3-st.q1), ms(st.q1), ms(st.q3), ms(st.sd), ms(st.min), st.n, ratio, ratioEq, target)
	}
	r.printf("\n")
}

// genericTable prints every command of the files matching glob, in the
// order of their first appearance.
func (r *report) genericTable(glob, ref, title string) error {
	files, err := filepath.Glob(glob)
	if err != nil {
		return err
	}
	sort.Strings(files)
	var order []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var hf hyperfineFile
		if err := json.Unmarshal(data, &hf); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, res := range hf.Results {
			if !contains(order, res.Command) {
				order = append(order, res.Command)
			}
		}
	}
	m, err := readHyperfine(glob)
	if err != nil {
		return err
	}
	if title != "" {
		r.printf("%s\n\n", title)
	}
	refName := ref
	if refName == "" {
		refName = "the first row"
		if len(order) > 0 {
			ref = order[0]
		}
	}
	r.printf("| command | median ms | IQR ms (Q1–Q3) | min ms | runs | × %s [95%% CI] | Δ median ms |\n", refName)
	r.printf("|---|--:|--:|--:|--:|--:|--:|\n")
	base := m[ref]
	for _, name := range order {
		xs := m[name]
		st := summarize(xs)
		ratio, delta := "—", "—"
		if len(base) > 0 {
			lo, hi := ratioCI(xs, base)
			ratio = fmt.Sprintf("%.2f [%.2f–%.2f]", st.median/median(base), lo, hi)
			delta = fmt.Sprintf("%+.2f", ms(st.median-median(base)))
		}
		r.printf("| %s | %.2f | %.2f (%.2f–%.2f) | %.2f | %d | %s | %s |\n",
			name, ms(st.median), ms(st.q3-st.q1), ms(st.q1), ms(st.q3), ms(st.min), st.n, ratio, delta)
	}
	r.printf("\n")
	return nil
}

func (r *report) workloadTable(key, title string, m map[string][]float64, cpu map[string]float64) {
	if len(m) == 0 {
		return
	}
	plain := m[nPlain]
	r.printf("## Workload: %s\n\n", title)
	r.printf("| variant | median s | IQR s (Q1–Q3) | runs | × plain [95%% CI] | run-time overhead vs plain, start-up removed | × bwrap | CPU s (user+sys, mean) | target |\n")
	r.printf("|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, name := range []string{nPlain, nFilterFloor, nKernelFloor, nBwrap, nRX, nSandbox} {
		xs, ok := m[name]
		if !ok {
			continue
		}
		st := summarize(xs)
		ratio, net, vsBwrap, target := "1.00", "—", "—", ""
		if name != nPlain && len(plain) > 0 {
			lo, hi := ratioCI(xs, plain)
			rt := st.median / median(plain)
			ratio = fmt.Sprintf("%.3f [%.3f–%.3f]", rt, lo, hi)
			// Start-up difference measured on /bin/true in this same run.
			if su, sp := r.startup[name], r.startup[nPlain]; len(su) > 0 && len(sp) > 0 {
				d := (st.median - median(plain)) - (median(su) - median(sp))
				net = fmt.Sprintf("%+.1f%%", 100*d/median(plain))
			}
			if name == nRX || name == nSandbox {
				t := workloadTargets[key]
				target = verdict(rt <= t, fmt.Sprintf("≤ %.2f× plain", t))
			}
		}
		if b := m[nBwrap]; len(b) > 0 {
			vsBwrap = fmt.Sprintf("%.3f", st.median/median(b))
		}
		cpuText := fmt.Sprintf("%.3f", cpu[name])
		if name == nBwrap {
			cpuText = "n/a¹"
		}
		r.printf("| %s | %.3f | %.3f (%.3f–%.3f) | %d | %s | %s | %s | %s | %s |\n",
			name, st.median, st.q3-st.q1, st.q1, st.q3, st.n, ratio, net, vsBwrap, cpuText, target)
	}
	r.printf("\n¹ bubblewrap does not wait(2) for the child it starts in a new pid namespace, so its CPU time never reaches hyperfine's rusage.\n\n")
}

type sysloopResult struct {
	Label     string    `json:"label"`
	Syscall   string    `json:"syscall"`
	Filter    string    `json:"filter"`
	Calls     int       `json:"calls"`
	NsPerCall []float64 `json:"ns_per_call"`
}

func (r *report) seccompTable() error {
	res, err := readJSONL[sysloopResult](filepath.Join(r.dir, "seccomp.jsonl"))
	if err != nil || len(res) == 0 {
		return err
	}
	type key struct{ syscall, label string }
	merged := map[key][]float64{}
	var calls []string
	var labels []string
	for _, x := range res {
		k := key{x.Syscall, x.Label}
		if _, ok := merged[k]; !ok {
			if !contains(calls, x.Syscall) {
				calls = append(calls, x.Syscall)
			}
			if !contains(labels, x.Label) {
				labels = append(labels, x.Label)
			}
		}
		merged[k] = append(merged[k], x.NsPerCall...)
	}
	r.printf("## seccomp: cost per system call (tight loop, one thread)\n\n")
	r.printf("| syscall | filter | median ns/call | IQR ns (Q1–Q3) | best round ns | rounds | added vs no filter | added vs allow-all | target |\n")
	r.printf("|---|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, sc := range calls {
		none := median(merged[key{sc, "no filter"}])
		allow := median(merged[key{sc, "allow-all (1 insn)"}])
		allowMin := summarize(merged[key{sc, "allow-all (1 insn)"}]).min
		for _, l := range labels {
			xs, ok := merged[key{sc, l}]
			if !ok {
				continue
			}
			st := summarize(xs)
			dNone, dAllow, target := "—", "—", ""
			if l != "no filter" && none > 0 {
				dNone = fmt.Sprintf("%+.1f", st.median-none)
			}
			if strings.HasPrefix(l, "omega-run") && allow > 0 {
				dAllow = fmt.Sprintf("%+.1f", st.median-allow)
				if sc == "getppid" {
					// The best round is the least disturbed estimate of
					// the intrinsic cost: noise only ever adds.
					target = verdict(st.min <= allowMin*1.05, "best round ≤ allow-all's best + 5%")
				}
			}
			r.printf("| %s | %s | %.1f | %.1f (%.1f–%.1f) | %.1f | %d | %s | %s | %s |\n",
				sc, l, st.median, st.q3-st.q1, st.q1, st.q3, st.min, st.n, dNone, dAllow, target)
		}
	}
	r.printf("\n")
	return nil
}

type rssResult struct {
	Label       string  `json:"label"`
	RunsKiB     []int64 `json:"runs_kib"`
	ChildrenKiB int64   `json:"children_kib"`
	// CheckMinKiB marks a coverage check: the figure must reach it.
	CheckMinKiB int64 `json:"check_min_kib"`
}

func (r *report) rssTable() error {
	res, err := readJSONL[rssResult](filepath.Join(r.dir, "rss.jsonl"))
	if err != nil || len(res) == 0 {
		return err
	}
	r.printf("## Peak RSS of the largest process in the tree (getrusage RUSAGE_CHILDREN after wait)\n\n")
	r.printf("| command | median MiB | max MiB | runs | RUSAGE_CHILDREN MiB | target |\n")
	r.printf("|---|--:|--:|--:|--:|---|\n")
	for _, x := range res {
		xs := make([]float64, len(x.RunsKiB))
		for i, v := range x.RunsKiB {
			xs[i] = float64(v)
		}
		st := summarize(xs)
		children := "—"
		if x.ChildrenKiB > 0 {
			children = fmt.Sprintf("%.2f", mib(float64(x.ChildrenKiB)))
		}
		target := ""
		switch {
		case x.CheckMinKiB > 0:
			target = verdict(st.max >= float64(x.CheckMinKiB), fmt.Sprintf("coverage check: ≥ %.0f MiB", mib(float64(x.CheckMinKiB))))
		case strings.HasPrefix(x.Label, "omega-run") && !strings.Contains(x.Label, "VmHWM"):
			target = verdict(st.max <= rssTargetKiB, "≤ 8 MiB")
		}
		r.printf("| %s | %.2f | %.2f | %d | %s | %s |\n", x.Label, mib(st.median), mib(st.max), st.n, children, target)
	}
	r.printf("\n")
	return nil
}

func (r *report) commandList() {
	if len(r.order) == 0 {
		return
	}
	r.printf("## Commands\n\n")
	for _, name := range r.order {
		r.printf("- %s: `%s`\n", name, r.commands[name])
	}
	r.printf("\n")
}

// --- formatting ----------------------------------------------------------

func verdict(ok bool, what string) string {
	if ok {
		return "PASS " + what
	}
	return "FAIL " + what
}

func ms(s float64) float64 { return s * 1e3 }

func mib(kib float64) float64 { return kib / 1024 }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
