// Command report turns the raw files bench/run.sh collects into one
// markdown report: the start-up table (medians, spreads, ratios against
// bubblewrap from the same run), the workload tables, the seccomp
// per-syscall table and the peak-RSS table.
//
//	report -dir DIR
//	report -table 'GLOB' [-ref NAME] [-title TEXT]
//
// DIR holds
//
//	startup-*.json   hyperfine --export-json, one file per round
//	find-*.json      the same for `find /usr | wc -l`
//	files-*.json     the same for the 20,000-file job
//	seccomp.jsonl    one bench/sysloop result per line
//	rss.jsonl        one bench/maxrss result per line
//	commands.tsv     NAME<TAB>COMMAND, for the footnotes
//
// The second form prints one generic table (median, IQR, min, runs, ratio
// to the command named -ref) from any hyperfine JSON files; profile.sh
// uses it.
//
// Rounds of the same command (same hyperfine command name) are merged, so
// run.sh can interleave the variants to spread slow drift of a noisy
// machine over all of them. Ratios are ratios of medians; the 95%
// interval next to them is a percentile bootstrap (fixed seed) over the
// raw runs of both commands.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Names of the variants, as run.sh passes them to hyperfine -n.
const (
	nPlain        = "plain"
	nUnshare      = "unshare -Urmpf"
	nBwrap        = "bwrap"
	nBwrapEq      = "bwrap (equivalent)"
	nBwrapEqSec   = "bwrap (equivalent + omega-run seccomp)"
	nRWX          = "omega-run rwx"
	nRX           = "omega-run rx"
	nSandbox      = "omega-run sandbox"
	nRXDyn        = "omega-run rx (dynamic build)"
	nSandboxDyn   = "omega-run sandbox (dynamic build)"
	nRXGlibc      = "omega-run rx (static glibc)"
	nSandboxGlibc = "omega-run sandbox (static glibc)"
	// nFilterFloor: plain under a one-instruction allow-all seccomp
	// filter, what any filter costs a workload on this kernel.
	nFilterFloor = "plain, 1-insn seccomp filter"
	// nKernelFloor adds one Landlock layer like rx's (read handled on
	// "/", writes in the data dir): the least any Landlock and seccomp
	// confinement costs a workload on this kernel.
	nKernelFloor = "plain, Landlock + 1-insn filter"
)

// startupTargets are the brief's start-up targets, as a fraction of
// bubblewrap's median.
var startupTargets = map[string]float64{nRX: 0.6, nSandbox: 0.8}

// workloadTargets are the allowed ratios to plain.
var workloadTargets = map[string]float64{"find": 1.03, "files": 1.15}

// rssTargetKiB is the peak-RSS target for omega-run's tree.
const rssTargetKiB = 8 << 10

func main() {
	dir := flag.String("dir", ".", "directory with the raw results")
	table := flag.String("table", "", "print one table from the hyperfine JSON files matching this glob")
	ref := flag.String("ref", "", "with -table: the command the ratios refer to")
	title := flag.String("title", "", "with -table: a heading")
	files := flag.Int("files", 20000, "number of files of the small-file job (for its title)")
	flag.Parse()
	r := &report{w: bufio.NewWriter(os.Stdout), dir: *dir, files: *files}
	if *table != "" {
		if err := r.genericTable(*table, *ref, *title); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		r.w.Flush()
		return
	}
	if err := r.run(); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	r.w.Flush()
}

type report struct {
	w        *bufio.Writer
	dir      string
	files    int
	commands map[string]string
	order    []string
	startup  map[string][]float64
}

func (r *report) printf(format string, args ...any) { fmt.Fprintf(r.w, format, args...) }

func (r *report) run() error {
	r.readCommands()
	r.header()
	var err error
	r.startup, err = readHyperfine(filepath.Join(r.dir, "startup-*.json"))
	if err != nil {
		return err
	}
	r.startupTable()
	for _, wl := range []struct{ key, title string }{
		{"find", "`find /usr | wc -l`"},
		{"files", fmt.Sprintf("create, write (64 B) and delete %d files in the data dir", r.files)},
	} {
		m, err := readHyperfine(filepath.Join(r.dir, wl.key+"-*.json"))
		if err != nil {
			return err
		}
		cpu, err := readCPU(filepath.Join(r.dir, wl.key+"-*.json"))
		if err != nil {
			return err
		}
		r.workloadTable(wl.key, wl.title, m, cpu)
	}
	if err := r.seccompTable(); err != nil {
		return err
	}
	if err := r.rssTable(); err != nil {
		return err
	}
	r.commandList()
	return nil
}

// --- input ---------------------------------------------------------------

type hyperfineFile struct {
	Results []struct {
		Command string    `json:"command"`
		Times   []float64 `json:"times"`
		User    float64   `json:"user"`   // mean, seconds
		System  float64   `json:"system"` // mean, seconds
	} `json:"results"`
}

// readCPU returns, per command, the mean user+system CPU seconds of a
// run over every file matching pattern (rounds weighted by their runs).
func readCPU(pattern string) (map[string]float64, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	sum, n := map[string]float64{}, map[string]float64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var hf hyperfineFile
		if err := json.Unmarshal(data, &hf); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, res := range hf.Results {
			k := float64(len(res.Times))
			sum[res.Command] += (res.User + res.System) * k
			n[res.Command] += k
		}
	}
	out := map[string]float64{}
	for c := range sum {
		out[c] = sum[c] / n[c]
	}
	return out, nil
}

// readHyperfine merges every run of every file matching pattern by
// command name. Times are in seconds.
func readHyperfine(pattern string) (map[string][]float64, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	out := map[string][]float64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var hf hyperfineFile
		if err := json.Unmarshal(data, &hf); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, res := range hf.Results {
			out[res.Command] = append(out[res.Command], res.Times...)
		}
	}
	return out, nil
}

// readJSONL decodes one value per line into a fresh T each.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	var out []T
	dec := json.NewDecoder(f)
	for {
		var v T
		if err := dec.Decode(&v); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, v)
	}
}

func (r *report) readCommands() {
	r.commands = map[string]string{}
	data, err := os.ReadFile(filepath.Join(r.dir, "commands.tsv"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, cmd, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if _, seen := r.commands[name]; !seen {
			r.order = append(r.order, name)
		}
		r.commands[name] = cmd
	}
}

// --- statistics ----------------------------------------------------------

type stats struct {
	n                        int
	median, q1, q3, mean, sd float64
	min, max                 float64
}

func summarize(xs []float64) stats {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	st := stats{n: len(s)}
	if len(s) == 0 {
		return st
	}
	st.median, st.q1, st.q3 = quantile(s, 0.5), quantile(s, 0.25), quantile(s, 0.75)
	st.min, st.max = s[0], s[len(s)-1]
	for _, x := range s {
		st.mean += x
	}
	st.mean /= float64(len(s))
	for _, x := range s {
		st.sd += (x - st.mean) * (x - st.mean)
	}
	if len(s) > 1 {
		st.sd = math.Sqrt(st.sd / float64(len(s)-1))
	}
	return st
}

// quantile interpolates linearly in sorted s (type 7, as numpy and R).
func quantile(s []float64, q float64) float64 {
	if len(s) == 1 {
		return s[0]
	}
	h := q * float64(len(s)-1)
	lo := math.Floor(h)
	return s[int(lo)] + (h-lo)*(s[int(math.Ceil(h))]-s[int(lo)])
}

func median(xs []float64) float64 { return summarize(xs).median }

// ratioCI is a percentile bootstrap 95% interval of median(a)/median(b).
func ratioCI(a, b []float64) (lo, hi float64) {
	if len(a) < 2 || len(b) < 2 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const iters = 2000
	ratios := make([]float64, iters)
	ra, rb := make([]float64, len(a)), make([]float64, len(b))
	for i := range ratios {
		for j := range ra {
			ra[j] = a[rng.IntN(len(a))]
		}
		for j := range rb {
			rb[j] = b[rng.IntN(len(b))]
		}
		ratios[i] = median(ra) / median(rb)
	}
	sort.Float64s(ratios)
	return quantile(ratios, 0.025), quantile(ratios, 0.975)
}

// --- sections ------------------------------------------------------------

func (r *report) header() {
	host, _ := os.Hostname()
	kernel := "unknown"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	r.printf("# omega-run benchmark\n\n")
	r.printf("- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	r.printf("- machine: %s, %d CPUs (nproc), %s, kernel %s\n", host, runtime.NumCPU(), cpuModel(), kernel)
	if v, err := os.ReadFile(filepath.Join(r.dir, "versions.txt")); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(v)), "\n") {
			r.printf("- %s\n", line)
		}
	}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		r.printf("- load average at the end: %s (other work on the machine widens the spreads)\n", strings.Join(strings.Fields(string(la))[:3], " "))
	}
	r.printf("\n")
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
