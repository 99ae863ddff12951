package seccomp

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestInstallRefusesBadPrograms(t *testing.T) {
	long := make([]insn, maxInsns+1)
	for i := range long {
		long[i] = insn{code: opRetK, k: uint32(retAllow)}
	}
	cases := []struct {
		name string
		prog *Program
		want string
	}{
		{"nil", nil, "install: empty program"},
		{"empty", &Program{}, "install: empty program"},
		{"partial", &Program{BPF: make([]byte, 7)}, "not a whole number of instructions"},
		{"too long", &Program{BPF: encode(long, binary.NativeEndian)}, "4097 instructions, the kernel takes at most 4096"},
	}
	for _, c := range cases {
		if err := c.prog.Install(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
