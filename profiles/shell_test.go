package profiles

import "testing"

func TestReadsCommandsFromStdin(t *testing.T) {
	for _, tc := range []struct {
		path string
		args []string
		want bool
	}{
		{"/bin/bash", nil, true},
		{"bash", []string{"-l"}, true},
		{"/usr/bin/zsh", []string{"-i"}, true},
		{"/bin/bash", []string{"--login", "--norc"}, true},
		{"/bin/bash", []string{"--rcfile", "x.sh"}, true},
		{"/bin/bash", []string{"-o", "vi"}, true},
		{"/bin/bash", []string{"+O", "extglob"}, true},
		{"/bin/bash", []string{"-C"}, true}, // noclobber
		{"/usr/bin/fish", []string{"-C", "echo hi"}, true},
		{"/bin/sh", []string{"-s", "a", "b"}, true},
		{"/bin/bash", []string{"--"}, true},
		{"/bin/bash5.2", nil, true},
		{"/bin/bash", []string{"-c", "claude"}, false},
		{"/bin/bash", []string{"-lc", "make"}, false},
		{"/bin/bash", []string{"-o", "pipefail", "-c", "x"}, false},
		{"/usr/bin/fish", []string{"--command=ls"}, false},
		{"/usr/bin/fish", []string{"--command", "ls"}, false},
		{"/bin/sh", []string{"script.sh"}, false},
		{"/bin/sh", []string{"--", "script.sh"}, false},
		{"/bin/bash", []string{"-x", "script.sh", "-c"}, false},
		{"/usr/bin/python3", nil, false},
		{"/usr/local/bin/claude", nil, false},
		{"/bin/bashful", nil, false},
	} {
		if got := ReadsCommandsFromStdin(tc.path, tc.args); got != tc.want {
			t.Errorf("ReadsCommandsFromStdin(%q, %q) = %v, want %v", tc.path, tc.args, got, tc.want)
		}
	}
}
