//go:build linux && cgo && !omega_goinit

package nsexec

import (
	"os"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

type mountinfoCase struct {
	name, line string
	want       mountinfo.Mount // zero: a line not understood
	source     string
}

// mountinfoCases are lines as the kernel writes them (fields one space
// apart, only space, tab, newline and backslash escaped) and some it
// never writes, which both parsers refuse.
func mountinfoCases() []mountinfoCase {
	mnt := func(id uint64, root, point, opts, fstype, super string) mountinfo.Mount {
		return mountinfo.Mount{ID: id, Dev: "0:39", Root: root, Point: point, Options: opts, FSType: fstype, SuperOptions: super}
	}
	return []mountinfoCase{
		{"plain", "22 1 0:39 / /proc rw,nosuid - proc proc rw,hidepid=invisible,subset=pid",
			mnt(22, "/", "/proc", "rw,nosuid", "proc", "rw,hidepid=invisible,subset=pid"), "proc"},
		{"newline", "22 1 0:39 / /x rw - tmpfs none rw\n", mnt(22, "/", "/x", "rw", "tmpfs", "rw"), "none"},
		{"optional fields", "36 35 0:39 /mnt1 /mnt2 rw,noatime master:1 shared:7 propagate_from:2 unbindable - ext3 /dev/root rw,errors=continue",
			mnt(36, "/mnt1", "/mnt2", "rw,noatime", "ext3", "rw,errors=continue"), "/dev/root"},
		{"escaped space", `31 22 0:39 /srv/a\040b /mnt/x\040y rw - ext4 /dev/sda\0401 rw`,
			mnt(31, "/srv/a b", "/mnt/x y", "rw", "ext4", "rw"), `/dev/sda\0401`},
		{"escaped tab newline backslash", `31 22 0:39 / /t\011n\012b\134 rw - tmpfs none rw`,
			mnt(31, "/", "/t\tn\nb\\", "rw", "tmpfs", "rw"), "none"},
		{"vertical tab in point", "65 44 0:39 / /tmp/a\vb rw shared:3 - fuse.x x rw", mnt(65, "/", "/tmp/a\vb", "rw", "fuse.x", "rw"), "x"},
		{"form feed in root", "66 44 0:39 /src\fx /mnt/dst rw - ext4 /dev/sda1 rw", mnt(66, "/src\fx", "/mnt/dst", "rw", "ext4", "rw"), "/dev/sda1"},
		{"carriage return in point", "67 44 0:39 / /m\rn rw - tmpfs none rw", mnt(67, "/", "/m\rn", "rw", "tmpfs", "rw"), "none"},
		{"no-break space in point", "68 44 0:39 / /m\u00a0n rw - tmpfs none rw", mnt(68, "/", "/m\u00a0n", "rw", "tmpfs", "rw"), "none"},
		{"empty source", "65 44 0:39 / /tmp/x rw,relatime - tmpfs  rw", mnt(65, "/", "/tmp/x", "rw,relatime", "tmpfs", "rw"), ""},
		{"empty fuse fsname", "66 44 0:39 / /y rw shared:7 - fuse.z  rw,user_id=1000", mnt(66, "/", "/y", "rw", "fuse.z", "rw,user_id=1000"), ""},
		{"empty source of /proc", "70 1 0:39 / /proc rw - proc  rw,subset=pid", mnt(70, "/", "/proc", "rw", "proc", "rw,subset=pid"), ""},
		{"a field past super", "22 1 0:39 / /x rw - tmpfs none rw more", mnt(22, "/", "/x", "rw", "tmpfs", "rw"), "none"},
		{"words", "bad line", mountinfo.Mount{}, ""},
		{"empty", "", mountinfo.Mount{}, ""},
		{"no separator", "22 1 0:39 / /x rw tmpfs none rw", mountinfo.Mount{}, ""},
		{"no super", "22 1 0:39 / /x rw - tmpfs none", mountinfo.Mount{}, ""},
		{"separator early", "22 1 0:39 / - rw tmpfs - none rw x", mountinfo.Mount{}, ""},
		{"id not a number", "x2 1 0:39 / /x rw - tmpfs none rw", mountinfo.Mount{}, ""},
		{"id signed", "+2 1 0:39 / /x rw - tmpfs none rw", mountinfo.Mount{}, ""},
		{"id past 64 bits", "18446744073709551616 1 0:39 / /x rw - tmpfs none rw", mountinfo.Mount{}, ""},
		{"id of 64 bits", "18446744073709551615 1 0:39 / /x rw - tmpfs none rw",
			mnt(18446744073709551615, "/", "/x", "rw", "tmpfs", "rw"), "none"},
	}
}

// TestCMountinfoLine: the C init stage reads a mountinfo line as the
// kernel writes it, and as internal/mountinfo does. It split at any
// whitespace (sscanf's %s, strtok), so that \v, \f or \r in a path cut
// the field — where the kernel has no mount_setattr, a mount at such a
// path was left writable in the read-only root — and an empty source
// shifted the fields after it; a line it could not read it skipped.
func TestCMountinfoLine(t *testing.T) {
	for _, c := range mountinfoCases() {
		t.Run(c.name, func(t *testing.T) {
			got, source, ok := cMountinfoLine(c.line)
			if ok != (c.want != mountinfo.Mount{}) || got != c.want || source != c.source {
				t.Errorf("C read %+v, source %q (understood: %v), want %+v, source %q", got, source, ok, c.want, c.source)
			}
			mounts, err := mountinfo.Parse([]byte(c.line))
			if goOK := err == nil; goOK != ok || ok && mounts[0] != got {
				t.Errorf("Go read %+v (%v), C %+v (understood: %v)", mounts, err, got, ok)
			}
		})
	}
}

// TestCMountinfoThisTable: this process's mount table, read by both.
func TestCMountinfoThisTable(t *testing.T) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		mounts, err := mountinfo.Parse([]byte(line))
		got, _, ok := cMountinfoLine(line)
		if err != nil || !ok || got != mounts[0] {
			t.Errorf("line %q: C %+v (understood: %v), Go %+v (%v)", line, got, ok, mounts, err)
		}
	}
}

// FuzzCMountinfoAgrees: on any one line both parsers refuse it or read
// the same fields, and C reads no byte past it. Left out: what C strings
// cannot hold (NUL, an escaped one) and the whitespace Go's Parse trims
// at the ends of the whole table (the kernel writes neither).
func FuzzCMountinfoAgrees(f *testing.F) {
	for _, c := range mountinfoCases() {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\x00\n") || strings.Contains(line, `\000`) || strings.TrimSpace(line) != line {
			t.Skip()
		}
		mounts, err := mountinfo.Parse([]byte(line))
		got, _, ok := cMountinfoLine(line)
		if (err == nil) != ok || ok && got != mounts[0] {
			t.Fatalf("Go read %+v (%v), C %+v (understood: %v)", mounts, err, got, ok)
		}
	})
}
