package cgroups

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseLimits: ParseLimits never panics, its errors wrap ErrInvalid,
// and what it accepts passes Validate and parses back from the plain
// numbers String prints.
func FuzzParseLimits(f *testing.F) {
	for _, s := range [][3]string{
		{"64M", "16", "0.5"}, {"67108864", "", ""}, {" 64MiB ", " 1 ", " .25 "}, {"2T", "", "1e0"},
		{"9223372036854775807", "9223372036854775807", "1048576"}, {"8796093022207T", "", ""},
		{"5M", "0", "0.00999"}, {"1.5G", "-1", "NaN"}, {"", "", "0x1p-2"}, {"8192\u212a", "", ""}, {"", "", "Inf"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, memory, pids, cpus string) {
		l, err := ParseLimits(memory, pids, cpus)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("ParseLimits(%q, %q, %q) = %+v, which Validate refuses: %v", memory, pids, cpus, l, err)
		}
		if q, _ := l.CPUQuota(); l.CPUs != 0 && (q < minCPUQuota || q > maxCPUs*CPUPeriod) {
			t.Fatalf("cpus %v: quota %d", l.CPUs, q)
		}
		if strings.ContainsFunc(memory+pids+cpus, func(r rune) bool { return r > 0x7f }) {
			t.Fatalf("ParseLimits(%q, %q, %q) accepted non-ASCII input: %+v", memory, pids, cpus, l)
		}
		mem, n, c := "", "", ""
		if l.Memory != 0 {
			mem = strconv.FormatInt(l.Memory, 10)
		}
		if l.Pids != 0 {
			n = strconv.FormatInt(l.Pids, 10)
		}
		if l.CPUs != 0 {
			c = strconv.FormatFloat(l.CPUs, 'f', -1, 64)
		}
		if again, err := ParseLimits(mem, n, c); err != nil || again != l {
			t.Fatalf("%+v (%s) parses back as %+v, %v", l, l, again, err)
		}
	})
}
