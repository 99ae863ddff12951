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
