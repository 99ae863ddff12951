// Package rlimits parses and applies POSIX resource limits (setrlimit(2))
// for the `--rlimit NAME=SOFT[:HARD]` flag.
//
// Names are those of prlimit(1): as, core, cpu, fsize, memlock, nofile,
// nproc and stack. The value syntax follows prlimit too:
//
//	nofile=1024        soft and hard limit both 1024
//	nofile=1024:4096   soft 1024, hard 4096
//	nofile=1024:       soft 1024, hard limit left as it is
//	nofile=:4096       hard 4096, soft limit left as it is
//
// A value is a decimal number or "unlimited" (aliases "infinity" and "-1").
// The byte limits (as, core, fsize, memlock, stack) also take a size with a
// binary suffix: K, M, G or T (KiB, MiB, GiB, TiB are accepted as well), so
// "as=512M" is 512*1024*1024 bytes. cpu is in seconds, nofile and nproc are
// counts.
//
// Parse is pure and builds on every GOOS; Apply sets the limits on the
// calling process (Linux only) and must run in the process that will execve
// the program, after the Go-side setup that could trip over them (a low "as"
// limit can make the Go runtime itself fail to allocate). Limits are inherited
// across fork and execve.
package rlimits

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unlimited is RLIM_INFINITY: no limit.
const Unlimited = math.MaxUint64

// Limit is one parsed --rlimit value.
type Limit struct {
	// Name is the prlimit(1) name, e.g. "nofile".
	Name string
	// Resource is the Linux RLIMIT_* number for Name, or -1 where Linux
	// resource numbers do not apply (other systems).
	Resource int
	// Soft and Hard are the limits; Unlimited means no limit.
	Soft, Hard uint64
	// KeepSoft and KeepHard are set for prlimit's ":HARD" and "SOFT:" forms:
	// Apply leaves that value as the process has it. With both false (the
	// zero value) Apply sets both.
	KeepSoft, KeepHard bool
}

// unit says what a resource counts, and so which values it accepts.
type unit int

const (
	count    unit = iota // a plain number
	byteSize             // a number or a size with K/M/G/T
	seconds              // CPU seconds
)

// resources lists every accepted name. The Linux numbers are filled in by
// resourceNumber (resource_linux.go / resource_other.go).
var resources = map[string]unit{
	"as":         byteSize,
	"core":       byteSize,
	"cpu":        seconds,
	"fsize":      byteSize,
	"memlock":    byteSize,
	"msgqueue":   byteSize,
	"nofile":     count,
	"nproc":      count,
	"sigpending": count,
	"stack":      byteSize,
}

var (
	// ErrInvalid is wrapped by every error Parse returns.
	ErrInvalid = errors.New("invalid resource limit")
	// ErrUnsupported is wrapped by Apply's error on systems other than Linux
	// when limits are given.
	ErrUnsupported = errors.New("resource limits are only applied on Linux")
)

// Names returns the accepted resource names, sorted.
func Names() []string {
	names := make([]string, 0, len(resources))
	for n := range resources {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Usage is a one-line description of the accepted syntax, for help texts and
// error messages.
func Usage() string {
	return "want NAME=SOFT[:HARD] with NAME one of " + strings.Join(Names(), ", ") +
		`; a value is a number or "unlimited", sizes (as, core, fsize, memlock, stack) may use K, M, G, T`
}

// Parse parses --rlimit values. A name given twice is an error, and so is a
// soft limit above the hard limit when both are given. Every error wraps
// ErrInvalid and ends with Usage().
func Parse(specs []string) ([]Limit, error) {
	var out []Limit
	seen := map[string]bool{}
	for _, spec := range specs {
		l, err := parseOne(spec)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %w (%s)", ErrInvalid, spec, err, Usage())
		}
		if seen[l.Name] {
			return nil, fmt.Errorf("%w %q: %s given twice (%s)", ErrInvalid, spec, l.Name, Usage())
		}
		seen[l.Name] = true
		out = append(out, l)
	}
	return out, nil
}

func parseOne(spec string) (Limit, error) {
	// strings.ToLower and unicode.IsLetter would take "stac\u212a" (a
	// Kelvin sign) for "stack" and "1\u212a" for 1K.
	if i := strings.IndexFunc(spec, func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
		return Limit{}, fmt.Errorf("non-ASCII character at byte %d", i)
	}
	name, value, ok := strings.Cut(strings.TrimSpace(spec), "=")
	if !ok {
		return Limit{}, errors.New("missing '='")
	}
	name = strings.ToLower(strings.TrimSpace(name))
	u, known := resources[name]
	if !known {
		return Limit{}, fmt.Errorf("unknown resource name %q", name)
	}
	l := Limit{Name: name, Resource: resourceNumber(name)}
	softStr, hardStr, twoValues := strings.Cut(value, ":")
	if !twoValues {
		hardStr = softStr
	}
	if softStr == "" && hardStr == "" {
		return Limit{}, errors.New("no value")
	}
	var err error
	if l.KeepSoft = softStr == ""; !l.KeepSoft {
		if l.Soft, err = parseValue(softStr, u); err != nil {
			return Limit{}, fmt.Errorf("soft limit: %w", err)
		}
	}
	if l.KeepHard = hardStr == ""; !l.KeepHard {
		if l.Hard, err = parseValue(hardStr, u); err != nil {
			return Limit{}, fmt.Errorf("hard limit: %w", err)
		}
	}
	if !l.KeepSoft && !l.KeepHard && l.Soft > l.Hard {
		return Limit{}, fmt.Errorf("soft limit %s is above hard limit %s",
			FormatValue(l.Soft), FormatValue(l.Hard))
	}
	return l, nil
}

// sizeSuffixes maps a suffix (lower case) to its multiplier.
var sizeSuffixes = map[string]uint64{
	"k": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tib": 1 << 40,
}

func parseValue(s string, u unit) (uint64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "unlimited", "infinity", "-1":
		return Unlimited, nil
	case "":
		return 0, errors.New("empty value")
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i == 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	digits, suffix := s, ""
	if i > 0 {
		digits, suffix = s[:i], s[i:]
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	if suffix == "" {
		return n, nil
	}
	if strings.IndexFunc(suffix, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if u != byteSize {
		return 0, fmt.Errorf("%q: size suffixes apply only to byte limits", s)
	}
	mult, ok := sizeSuffixes[strings.ToLower(suffix)]
	if !ok {
		return 0, fmt.Errorf("%q: unknown size suffix %q (use K, M, G or T, powers of 1024)", s, suffix)
	}
	if n > math.MaxUint64/mult {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return n * mult, nil
}

// FormatValue renders a limit value the way Parse accepts it.
func FormatValue(v uint64) string {
	if v == Unlimited {
		return "unlimited"
	}
	return strconv.FormatUint(v, 10)
}

// String renders l as NAME=SOFT:HARD, with an empty side for a kept value.
func (l Limit) String() string {
	soft, hard := FormatValue(l.Soft), FormatValue(l.Hard)
	if l.KeepSoft {
		soft = ""
	}
	if l.KeepHard {
		hard = ""
	}
	return l.Name + "=" + soft + ":" + hard
}
