//go:build linux && cgo

package seccomp

import "testing"

// TestWithConnectBroker holds the one-filter form against the kernel's
// rule for two filters (the profile, then the broker): for every syscall
// number of every ABI a profile covers, the action with the higher
// precedence wins, and the filter cache sees the same constant allows.
func TestWithConnectBroker(t *testing.T) {
	broker, err := connectBroker("amd64", retAllow)
	if err != nil {
		t.Fatal(err)
	}
	bprog, _ := decode(broker.BPF, nativeArch().order())
	for _, profile := range []string{"default", "strict", dockerDefault} {
		t.Run(profile, func(t *testing.T) {
			main := mustCompile(t, profile)
			combined, err := withConnectBroker(&Program{BPF: encode(main, nativeArch().order())}, "amd64")
			if err != nil {
				t.Fatal(err)
			}
			cprog, _ := decode(combined.BPF, nativeArch().order())
			for _, arch := range []string{"amd64", "x32", "x86"} {
				a, _ := archByName(arch)
				base := uint32(0)
				if arch == "x32" {
					base = 0x40000000
				}
				for nr := base; nr < base+470; nr++ {
					for _, arg0 := range []uint64{0, 3} {
						c := call{nr: nr, arch: a, args: [6]uint64{arg0, 0x5412, 0x41, 0o4755}}
						m, _ := run(main, c)
						b, _ := run(bprog, c)
						got, err := run(cprog, c)
						if err != nil {
							t.Fatal(err)
						}
						if want := twoFilters(m, b); got != want && !(action(m) == action(b) && (got == m || got == b)) {
							t.Fatalf("%s nr %#x arg0 %d: %#x, want %#x (profile %#x, broker %#x)", arch, nr, arg0, got, want, m, b)
						}
						if constAllow(cprog, c) != (constAllow(main, c) && constAllow(bprog, c)) {
							t.Fatalf("%s nr %#x: filter cache differs", arch, nr)
						}
					}
				}
			}
		})
	}
}

// action is a return's action as the kernel orders them: the lowest wins.
func action(r ret) int32 { return int32(uint32(r) & 0xffff0000) }

func twoFilters(older, newer ret) ret {
	if action(older) < action(newer) {
		return older
	}
	return newer
}
