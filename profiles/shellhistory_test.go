package profiles

import (
	"slices"
	"testing"
)

func TestShellHistory(t *testing.T) {
	for _, c := range []struct {
		path     string
		args     []string
		wantName string
		wantRCs  []string
	}{
		{"/usr/bin/bash", nil, "bash_history", []string{".bashrc", ".bash_profile", ".bash_login", ".profile"}},
		{"/usr/bin/bash", []string{"--norc"}, "bash_history", []string{".bash_profile", ".bash_login", ".profile"}},
		{"/usr/bin/bash", []string{"--norc", "--noprofile"}, "bash_history", []string{}},
		{"/usr/bin/bash", []string{"--rcfile", "/etc/r"}, "bash_history", []string{".bash_profile", ".bash_login", ".profile", "/etc/r"}},
		{"/usr/bin/bash", []string{"--", "--norc"}, "bash_history", []string{".bashrc", ".bash_profile", ".bash_login", ".profile"}},
		{"/usr/bin/zsh", nil, "zsh_history", []string{".zshenv", ".zprofile", ".zshrc", ".zlogin"}},
		{"/usr/bin/zsh5", []string{"-f"}, "zsh_history", nil},
		{"/usr/bin/mksh", nil, "mksh_history", []string{".mkshrc", ".profile"}},
		{"/usr/bin/dash", nil, "", nil},
		{"/usr/bin/fish", nil, "", nil},
		{"/usr/bin/python3", nil, "", nil},
	} {
		name, rcs := ShellHistory(c.path, c.args)
		if name != c.wantName || !slices.Equal(rcs, c.wantRCs) {
			t.Errorf("ShellHistory(%s, %q) = %q, %q; want %q, %q", c.path, c.args, name, rcs, c.wantName, c.wantRCs)
		}
	}
}
