package cgroups

import (
	"errors"
	"strings"
	"testing"
)

func TestParseLimits(t *testing.T) {
	const M = 1 << 20
	tests := []struct {
		memory, pids, cpus string
		want               Limits
		wantErr            string
	}{
		{want: Limits{}},
		{memory: "64M", want: Limits{Memory: 64 * M}},
		{memory: "64m", want: Limits{Memory: 64 * M}},
		{memory: "64MiB", want: Limits{Memory: 64 * M}},
		{memory: "1G", want: Limits{Memory: 1 << 30}},
		{memory: "2T", want: Limits{Memory: 2 << 40}},
		{memory: "8192K", want: Limits{Memory: 8 * M}},
		{memory: "67108864", want: Limits{Memory: 64 * M}},
		{memory: " 64M ", want: Limits{Memory: 64 * M}},
		{pids: "16", want: Limits{Pids: 16}},
		{cpus: "0.5", want: Limits{CPUs: 0.5}},
		{cpus: "2", want: Limits{CPUs: 2}},
		{cpus: ".25", want: Limits{CPUs: 0.25}},
		{cpus: "0.01", want: Limits{CPUs: 0.01}},
		{memory: "512M", pids: "64", cpus: "1.5", want: Limits{Memory: 512 * M, Pids: 64, CPUs: 1.5}},
		// memory
		{memory: "64", wantErr: `below the minimum 6M: omega-run's init stage runs in the group too (did you mean 64M?)`},
		{memory: "1K", wantErr: "below the minimum 6M"},
		{memory: "5M", wantErr: "below the minimum 6M"},
		{memory: "64MB", wantErr: `unknown suffix "MB"`},
		{memory: "64X", wantErr: `unknown suffix "X"`},
		{memory: "1.5G", wantErr: `unknown suffix ".5G"`},
		{memory: "-64M", wantErr: "not a number"},
		{memory: "M", wantErr: "not a number"},
		{memory: "unlimited", wantErr: "not a number"},
		{memory: "8192\u212a", wantErr: "not ASCII"}, // a Kelvin sign lower-cases to k
		{memory: "9999999T", wantErr: "out of range"},
		{memory: "99999999999999999999", wantErr: "out of range"},
		// pids
		{pids: "0", wantErr: "want a whole number of at least 1"},
		{pids: "-1", wantErr: "want a whole number of at least 1"},
		{pids: "1.5", wantErr: "want a whole number of at least 1"},
		{pids: "many", wantErr: "want a whole number of at least 1"},
		// cpus
		{cpus: "0", wantErr: "want a positive number of CPUs"},
		{cpus: "-1", wantErr: "want a positive number of CPUs"},
		{cpus: "NaN", wantErr: "want a positive number of CPUs"},
		{cpus: "Inf", wantErr: "want a positive number of CPUs"},
		{cpus: "1e9", wantErr: "want a positive number of CPUs"},
		{cpus: "half", wantErr: "want a positive number of CPUs"},
		{cpus: "50%", wantErr: "want a positive number of CPUs"},
		{cpus: "0.001", wantErr: "below the minimum 0.01"},
	}
	for _, tt := range tests {
		name := "memory=" + tt.memory + ",pids=" + tt.pids + ",cpus=" + tt.cpus
		t.Run(name, func(t *testing.T) {
			got, err := ParseLimits(tt.memory, tt.pids, tt.cpus)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("got %+v, want error containing %q", got, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "cgroups: ") {
					t.Errorf("error %q does not contain %q", err, tt.wantErr)
				}
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("error %q does not wrap ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCPUQuota(t *testing.T) {
	tests := []struct {
		cpus   string
		quota  int64
		period uint64
	}{
		{"", -1, 100000},
		{"0.5", 50000, 100000},
		{"1", 100000, 100000},
		{"1.5", 150000, 100000},
		{"4", 400000, 100000},
		{"0.01", 1000, 100000},
		{"0.333", 33300, 100000},
		{"0.0333333", 3333, 100000},
	}
	for _, tt := range tests {
		l, err := ParseLimits("", "", tt.cpus)
		if err != nil {
			t.Fatalf("cpus %q: %v", tt.cpus, err)
		}
		if q, p := l.CPUQuota(); q != tt.quota || p != tt.period {
			t.Errorf("cpus %q: quota, period = %d, %d; want %d, %d", tt.cpus, q, p, tt.quota, tt.period)
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	for _, tt := range []struct {
		l  Limits
		ok bool
	}{
		{Limits{}, true},
		{Limits{Memory: 64 << 20, Pids: 1, CPUs: 0.01}, true},
		{Limits{Memory: 1}, false},
		{Limits{Pids: -1}, false},
		{Limits{CPUs: -0.5}, false},
		{Limits{CPUs: 0.004}, false},
	} {
		if err := tt.l.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tt.l, err, tt.ok)
		}
	}
}

// TestLimitsString: memory in --memory's own words, the largest of its
// suffixes that is exact; it read "memory=67108864" for --memory 64M.
func TestLimitsString(t *testing.T) {
	for _, tt := range []struct {
		l    Limits
		want string
	}{
		{Limits{Memory: 64 << 20, Pids: 16, CPUs: 0.5}, "memory=64M pids=16 cpus=0.5"},
		{Limits{Memory: 1 << 30}, "memory=1G"},
		{Limits{Memory: 1536 << 20}, "memory=1536M"},
		{Limits{Memory: 2 << 40}, "memory=2T"},
		{Limits{Memory: 6<<20 + 512<<10}, "memory=6656K"},
		{Limits{Memory: 6<<20 + 1}, "memory=6291457"},
		{Limits{Pids: 4}, "pids=4"},
		{Limits{}, "none"},
	} {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.l, got, tt.want)
		}
		if tt.l.Memory != 0 {
			m, _ := strings.CutPrefix(strings.Fields(tt.want)[0], "memory=")
			if back, err := ParseLimits(m, "", ""); err != nil || back.Memory != tt.l.Memory {
				t.Errorf("--memory %s parses to %d, %v; want %d", m, back.Memory, err, tt.l.Memory)
			}
		}
	}
}

// TestMemoryHint: a bare number below the minimum suggests MiB only
// where that would be enough.
func TestMemoryHint(t *testing.T) {
	for memory, hint := range map[string]bool{"64": true, "6": true, "1": false, "0": false, "5": false} {
		_, err := ParseLimits(memory, "", "")
		if got := err != nil && strings.Contains(err.Error(), "did you mean"); got != hint {
			t.Errorf("--memory %s: %v; want a hint: %v", memory, err, hint)
		}
	}
}
