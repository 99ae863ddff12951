package main

import (
	"testing"
)

// TestBadInput: every bad input exits 125 before anything runs. (Runs
// that succeed would exec over the test binary; internal/e2e covers them.)
func TestBadInput(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	cases := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"unknown mode", []string{"--mode", "x", "--", "true"}, nil},
		{"unknown mode from env", []string{"--", "true"}, map[string]string{"OMEGA_SANDBOX_MODE": "nope"}},
		{"unknown net", []string{"--net", "x", "--", "true"}, nil},
		{"unknown flag", []string{"--nope", "--", "true"}, nil},
		{"no program", nil, nil},
		{"bad log level", []string{"--log-level", "loud", "--", "true"}, nil},
		{"bad log format", []string{"--log-format", "xml", "--", "true"}, nil},
		{"missing allow-write", []string{"--allow-write", "/no/such/dir", "--", "true"}, nil},
		{"explain for another OS", []string{"explain", "--os", "plan9"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if got := run(append([]string{"omega-run"}, c.args...)); got != 125 {
				t.Errorf("exit %d, want 125", got)
			}
		})
	}
}

// TestFlagBeatsEnv: a flag overrides its environment variable.
func TestFlagBeatsEnv(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("OMEGA_SANDBOX_MODE", "bogus")
	if got := run([]string{"omega-run", "explain", "--mode", "rx", "--json"}); got != 0 {
		t.Errorf("explain --mode rx with a bad env mode: exit %d, want 0", got)
	}
}

func TestNotFound(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	if got := run([]string{"omega-run", "--", "no-such-program-xyz"}); got != 127 {
		t.Errorf("exit %d, want 127", got)
	}
}
