package sandbox

import "testing"

// TestNpmCommand: npm's command is found after options as nopt reads
// them, those taking a value with it.
func TestNpmCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"install"}, "install"},
		{[]string{"--prefix", "d", "ci"}, "ci"},
		{[]string{"--loglevel", "warn", "--prefix", "d", "install"}, "install"},
		{[]string{"-C", "d", "--loglevel=warn", "ci"}, "ci"},
		{[]string{"-w", "ci", "test"}, "test"},                // a workspace named ci
		{[]string{"-gC", "d", "rebuild"}, "rebuild"},          // run together, the last takes a value
		{[]string{"-dd", "install"}, "install"},               // a shorthand with its value
		{[]string{"--offline", "install"}, "install"},         // a flag
		{[]string{"--offline", "true", "install"}, "install"}, // a flag's value
		{[]string{"--color", "always", "i"}, "i"},
		{[]string{"--color", "test"}, "test"},
		{[]string{"--unknown-option", "install"}, "install"}, // npm's unknown options are flags
		{[]string{"-reg", "http://r", "ci"}, "ci"},
		{[]string{"--prefix", "--", "install"}, "install"},
		{[]string{"--", "install"}, "install"},
		{[]string{"run", "install"}, "run"},
		{[]string{"--prefix", "d"}, ""},
		{[]string{}, ""},
	} {
		if got := npmCommand(c.args); got != c.want {
			t.Errorf("npmCommand(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}
