package cgroups

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

var (
	// ErrInvalid is wrapped by the errors of ParseLimits and Limits.Validate.
	ErrInvalid = errors.New("invalid cgroup limit")
	// ErrUnavailable is wrapped when the host has no cgroup this process can
	// create a group in with the needed controllers (not root and no
	// delegated subtree, a controller that is not mounted or not enabled,
	// a read-only cgroup mount, a non-Linux system).
	ErrUnavailable = errors.New("no writable cgroup with the needed controllers")
)

const (
	// MinMemory is the smallest memory limit accepted: omega-run's own init
	// stage runs in the group too.
	MinMemory = 6 << 20
	// CPUPeriod is the CFS period used for --cpus, in microseconds (the
	// kernel default, the same on v1 and v2).
	CPUPeriod = 100000
	// minCPUQuota is the kernel's smallest CFS quota, 1ms.
	minCPUQuota = 1000
	// maxCPUs bounds --cpus so that the quota stays far from overflow.
	maxCPUs = 1 << 20
)

// LimitError is a limit ParseLimits or Validate refuses; it wraps
// ErrInvalid. Its fields let a caller name the limit its own way (the
// launcher: "--memory "10X": unknown suffix …").
type LimitError struct {
	Limit  string // memory, pids or cpus
	Value  string // as given
	Reason string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("cgroups: %v: %s %q: %s", ErrInvalid, e.Limit, e.Value, e.Reason)
}

func (e *LimitError) Unwrap() error { return ErrInvalid }

// Limits are the requested limits; a zero field means no limit.
type Limits struct {
	// Memory is the limit in bytes on RAM + swap (swap is not used beyond
	// it: memory.swap.max=0 on v2, memory.memsw.limit_in_bytes on v1).
	Memory int64
	// Pids is the maximum number of tasks (processes and threads),
	// omega-run's init stage and its threads included.
	Pids int64
	// CPUs is the CPU bandwidth in CPUs, e.g. 0.5 for half of one CPU
	// (quota CPUs*CPUPeriod per CPUPeriod).
	CPUs float64
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool { return l == Limits{} }

// CPUQuota returns the CFS quota and period (microseconds) for l.CPUs; quota
// is -1 (no limit) when CPUs is zero.
func (l Limits) CPUQuota() (quota int64, period uint64) {
	if l.CPUs == 0 {
		return -1, CPUPeriod
	}
	return int64(math.Round(l.CPUs * CPUPeriod)), CPUPeriod
}

// Validate checks limits built without ParseLimits.
func (l Limits) Validate() error {
	switch {
	case l.Memory != 0 && l.Memory < MinMemory:
		return &LimitError{"memory", strconv.FormatInt(l.Memory, 10), "below the minimum 6M"}
	case l.Pids < 0:
		return &LimitError{"pids", strconv.FormatInt(l.Pids, 10), "negative"}
	case l.CPUs != 0 && !(l.CPUs > 0 && l.CPUs <= maxCPUs):
		return &LimitError{"cpus", fmt.Sprint(l.CPUs), "out of range"}
	}
	if q, _ := l.CPUQuota(); l.CPUs != 0 && q < minCPUQuota {
		return &LimitError{"cpus", fmt.Sprint(l.CPUs),
			fmt.Sprintf("below the minimum 0.01 (a %dus quota per %dus)", minCPUQuota, CPUPeriod)}
	}
	return nil
}

// String renders the set limits, e.g. "memory=64M pids=16 cpus=0.5":
// memory as --memory takes it, in the largest of its suffixes that is
// exact.
func (l Limits) String() string {
	var parts []string
	if l.Memory != 0 {
		parts = append(parts, "memory="+formatSize(l.Memory))
	}
	if l.Pids != 0 {
		parts = append(parts, "pids="+strconv.FormatInt(l.Pids, 10))
	}
	if l.CPUs != 0 {
		parts = append(parts, "cpus="+strconv.FormatFloat(l.CPUs, 'f', -1, 64))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// ParseLimits parses the --memory, --pids and --cpus values; an empty string
// leaves that limit unset. memory is bytes with an optional K, M, G or T
// suffix (powers of 1024; KiB, MiB, GiB, TiB too), at least 6M. pids is a
// positive integer. cpus is a positive decimal of at least 0.01.
func ParseLimits(memory, pids, cpus string) (Limits, error) {
	var l Limits
	var err error
	// strings.ToLower would take a Kelvin sign (U+212A) for the K suffix.
	for _, v := range []struct{ flag, value string }{{"memory", memory}, {"pids", pids}, {"cpus", cpus}} {
		if strings.ContainsFunc(v.value, func(r rune) bool { return r >= utf8.RuneSelf }) {
			return Limits{}, &LimitError{v.flag, v.value, "not ASCII"}
		}
	}
	if memory = strings.TrimSpace(memory); memory != "" {
		if l.Memory, err = parseSize(memory); err != nil {
			return Limits{}, &LimitError{"memory", memory,
				err.Error() + " (want bytes with an optional K, M, G or T suffix, powers of 1024, e.g. 512M)"}
		}
		if l.Memory < MinMemory {
			hint := ""
			// A bare number meant as MiB: suggested only where that is
			// enough.
			if n, err := strconv.ParseUint(memory, 10, 64); err == nil && n<<20 >= MinMemory && n < 1<<40 {
				hint = fmt.Sprintf(" (did you mean %sM?)", memory)
			}
			return Limits{}, &LimitError{"memory", memory,
				"below the minimum 6M: omega-run's init stage runs in the group too" + hint}
		}
	}
	if pids = strings.TrimSpace(pids); pids != "" {
		n, err := strconv.ParseInt(pids, 10, 64)
		if err != nil || n < 1 {
			return Limits{}, &LimitError{"pids", pids, "want a whole number of at least 1"}
		}
		l.Pids = n
	}
	if cpus = strings.TrimSpace(cpus); cpus != "" {
		f, err := strconv.ParseFloat(cpus, 64)
		if err != nil || !(f > 0 && f <= maxCPUs) {
			return Limits{}, &LimitError{"cpus", cpus, "want a positive number of CPUs, e.g. 0.5 or 2"}
		}
		l.CPUs = f
	}
	if err := l.Validate(); err != nil {
		return Limits{}, err
	}
	return l, nil
}

var sizeSuffixes = map[string]int64{
	"":  1,
	"k": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tib": 1 << 40,
}

// formatSize is parseSize's inverse: n in T, G, M or K where exact.
func formatSize(n int64) string {
	for _, u := range []string{"T", "G", "M", "K"} {
		if mult := sizeSuffixes[strings.ToLower(u)]; n%mult == 0 {
			return strconv.FormatInt(n/mult, 10) + u
		}
	}
	return strconv.FormatInt(n, 10)
}

// parseSize parses a byte count with an optional binary suffix.
func parseSize(s string) (int64, error) {
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i == 0 {
		return 0, errors.New("not a number")
	}
	digits, suffix := s, ""
	if i > 0 {
		digits, suffix = s[:i], s[i:]
	}
	mult, ok := sizeSuffixes[strings.ToLower(suffix)]
	if !ok {
		return 0, fmt.Errorf("unknown suffix %q", suffix)
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, errors.New("out of range")
	}
	return n * mult, nil
}

// controllers lists the cgroup controllers l needs (the same names on v1
// and v2).
func controllers(l Limits) []string {
	var cs []string
	if l.CPUs != 0 {
		cs = append(cs, "cpu")
	}
	if l.Memory != 0 {
		cs = append(cs, "memory")
	}
	if l.Pids != 0 {
		cs = append(cs, "pids")
	}
	return cs
}
