package mountinfo

import "testing"

func TestParse(t *testing.T) {
	const table = `22 1 0:21 / /proc rw,nosuid shared:5 - proc proc rw,hidepid=invisible,subset=pid
31 22 8:1 /srv/a\040b /mnt/x rw,relatime - ext4 /dev/sda1 rw
bad line

23 1 0:5 / /x rw - tmpfs
`
	got, err := Parse([]byte(table))
	if err == nil {
		t.Error("a bad line, no error")
	}
	want := []Mount{
		{ID: 22, Dev: "0:21", Root: "/", Point: "/proc", Options: "rw,nosuid", FSType: "proc", SuperOptions: "rw,hidepid=invisible,subset=pid"},
		{ID: 31, Dev: "8:1", Root: "/srv/a b", Point: "/mnt/x", Options: "rw,relatime", FSType: "ext4", SuperOptions: "rw"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if m, err := Read(); err != nil || len(m) == 0 {
		t.Errorf("Read: %d mounts, %v", len(m), err)
	}
}

// TestParseEmptySource: the kernel prints a mount's source as given, an
// empty one as an empty field between single spaces (mount -t tmpfs ""
// /x; a FUSE mount's fsname=, which its unprivileged user may choose):
// the line is whole, and taken for one not understood it could have a
// local user make every reader that must not guess fail.
func TestParseEmptySource(t *testing.T) {
	got, err := Parse([]byte("65 44 0:39 / /tmp/x rw,relatime - tmpfs  rw\n66 44 0:40 / /y rw shared:7 - fuse.z  rw,user_id=1000\n"))
	want := []Mount{
		{ID: 65, Dev: "0:39", Root: "/", Point: "/tmp/x", Options: "rw,relatime", FSType: "tmpfs", SuperOptions: "rw"},
		{ID: 66, Dev: "0:40", Root: "/", Point: "/y", Options: "rw", FSType: "fuse.z", SuperOptions: "rw,user_id=1000"},
	}
	if err != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v (%v), want %+v", got, err, want)
	}
}
