package sandbox

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

// TestUnreadMountTableSaid: where the mount table cannot be read, or a
// line of it is not understood, the other paths a host bind mount gives
// a masked credential store, --hide path or host socket are not found
// and stay unmasked: a launch says so in a warning, which --fail-closed
// makes a refusal (report), instead of leaving them in sight unsaid.
func TestUnreadMountTableSaid(t *testing.T) {
	defer func() { readMounts = mountinfo.Read }()
	for _, c := range []struct {
		name string
		read func() ([]mountinfo.Mount, error)
		want string
	}{
		{"unreadable", func() ([]mountinfo.Mount, error) {
			return nil, &fs.PathError{Op: "open", Path: "/proc/self/mountinfo", Err: fs.ErrPermission}
		}, "cannot read the mount table"},
		{"line not understood", func() ([]mountinfo.Mount, error) {
			m, _ := mountinfo.Read()
			return m, errors.New(`mountinfo: a line not understood: "7 1 \x1b[2J"`)
		}, "a line not understood"},
	} {
		t.Run(c.name, func(t *testing.T) {
			readMounts = c.read
			pol, err := Options{Mode: ModeSandbox, Home: t.TempDir(), FailClosed: true}.Policy()
			if err != nil {
				t.Fatal(err)
			}
			_, _, warnings, err := mountPlan(pol, nil, "/", 0)
			if err != nil {
				t.Fatal(err)
			}
			var said string
			for _, w := range warnings {
				if strings.Contains(w, c.want) {
					said = w
				}
			}
			switch {
			case said == "":
				t.Fatalf("warnings %q: none says %q", warnings, c.want)
			case !strings.Contains(said, "stays unmasked") || strings.ContainsAny(said, "\n\x1b"):
				t.Errorf("warning %q: want one line saying what stays unmasked, escaped", said)
			}
			if err := report(pol, warnings); err == nil || !strings.Contains(err.Error(), said) {
				t.Errorf("--fail-closed: report = %v, want a refusal with %q", err, said)
			}
		})
	}
}

// readAliases is newMountAliases for tests that need the whole table.
func readAliases(t testing.TB) *mountAliases {
	t.Helper()
	a, unread := newMountAliases()
	if unread != "" {
		t.Fatal(unread)
	}
	return a
}
