package seccomp

import "testing"

func TestConnectBroker(t *testing.T) {
	mustArch := func(name string) *archInfo {
		a, err := archByName(name)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		goarch, arch string
		nr           uint32
		arg0         uint64
		want         ret
	}{
		{"amd64", "amd64", 42, 0, retUserNotif},            // connect
		{"amd64", "x32", 0x40000000 | 42, 0, retUserNotif}, // connect, x32
		{"amd64", "x86", 362, 0, retUserNotif},             // connect, i386
		{"amd64", "x86", 102, 3, retUserNotif},             // socketcall(SYS_CONNECT)
		{"amd64", "x86", 102, 1, retAllow},                 // socketcall(SYS_SOCKET)
		{"amd64", "amd64", 39, 0, retAllow},                // getpid
		{"amd64", "amd64", 44, 0, retAllow},                // sendto
		{"amd64", "x32", 0x40000000 | 39, 0, retAllow},     // getpid, x32
		{"amd64", "x86", 20, 0, retAllow},                  // getpid, i386
		{"amd64", "arm64", 203, 0, retErrno | errEPERM},    // no such ABI here
		{"arm64", "arm64", 203, 0, retUserNotif},           // connect
		{"arm64", "arm", 283, 0, retUserNotif},             // connect, arm
		{"arm64", "arm", 102, 3, retUserNotif},             // socketcall(SYS_CONNECT)
		{"arm64", "arm64", 172, 0, retAllow},               // getpid
		{"arm64", "amd64", 42, 0, retErrno | errEPERM},     // no such ABI here
	}
	for _, tt := range tests {
		p, err := connectBroker(tt.goarch, retAllow)
		if err != nil {
			t.Fatal(err)
		}
		native := mustArch(tt.goarch)
		prog, err := decode(p.BPF, native.order())
		if err != nil {
			t.Fatal(err)
		}
		c := call{nr: tt.nr, arch: mustArch(tt.arch), args: [6]uint64{tt.arg0}}
		got, err := run(prog, c)
		if err != nil {
			t.Fatalf("%s/%s nr %d: %v", tt.goarch, tt.arch, tt.nr, err)
		}
		if got != tt.want {
			t.Errorf("%s/%s nr %#x arg0 %d: %#x, want %#x", tt.goarch, tt.arch, tt.nr, tt.arg0, got, tt.want)
		}
		// Only connect and socketcall may cost a filter run: everything
		// else must stay in the kernel's constant-allow cache.
		if tt.want == retAllow && tt.nr != 102 && !constAllow(prog, c) {
			t.Errorf("%s/%s nr %d: not constant-allow", tt.goarch, tt.arch, tt.nr)
		}
	}
	if _, err := connectBroker("riscv64", retAllow); err == nil {
		t.Error("riscv64: no error")
	}
}
