//go:build linux && cgo

package seccomp

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linuxGOARCHes are the GOARCHes Go supports on Linux.
var linuxGOARCHes = []string{
	"386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64",
	"mips64le", "ppc64", "ppc64le", "riscv64", "s390x",
}

// TestBuiltinPrograms is the drift test of the precompiled built-in
// programs, and with -update (go generate) their generator. With the
// libseccomp that made them it wants the very same bytes; with another
// it wants the same decisions for every syscall (equivalent).
func TestBuiltinPrograms(t *testing.T) {
	recorded, _ := builtinBPF.ReadFile(builtinVersionFile)
	sameLibseccomp := strings.TrimSpace(string(recorded)) == Version()
	for _, name := range []string{"default", "strict"} {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, goarch := range linuxGOARCHes {
			arch := archForGOARCH(goarch)
			prog, warnings, err := compileFor(p, host{arch: arch})
			if errors.Is(err, errArchUnsupported) {
				t.Logf("%s/%s: %v", name, goarch, err)
				continue
			}
			if err != nil {
				t.Fatalf("%s/%s: %v", name, goarch, err)
			}
			if len(warnings) > 0 {
				t.Errorf("%s/%s: built-in profiles must compile cleanly: %q", name, goarch, warnings)
			}
			file := builtinFile(name, goarch)
			if *update {
				writeFile(t, file, prog.BPF)
				continue
			}
			checkBuiltin(t, file, prog.BPF, arch, sameLibseccomp)
		}
	}
	if *update {
		writeFile(t, builtinVersionFile, []byte(Version()+"\n"))
	}
}

func checkBuiltin(t *testing.T, file string, want []byte, arch *archInfo, sameLibseccomp bool) {
	t.Helper()
	got, err := builtinBPF.ReadFile(file)
	switch {
	case err != nil && sameLibseccomp:
		t.Errorf("%s missing: run go generate ./seccomp", file)
	case err != nil:
		t.Logf("%s missing; libseccomp %s can build it: run go generate ./seccomp", file, Version())
	case bytes.Equal(got, want):
	case sameLibseccomp:
		t.Errorf("%s is stale: run go generate ./seccomp", file)
	default:
		if err := equivalentBytes(got, want, arch); err != nil {
			t.Errorf("%s decides differently from the JSON (%v): run go generate ./seccomp", file, err)
		}
	}
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.FromSlash(name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuiltinFastPath checks that Compile serves the built-ins from the
// precompiled files, and that they decide as a fresh compilation for
// this very host does.
func TestBuiltinFastPath(t *testing.T) {
	for _, name := range []string{"default", "strict"} {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		fast, ok := builtinProgram(p)
		if !ok {
			t.Fatalf("%s: no precompiled program for this GOARCH", name)
		}
		fresh, _, err := compileFor(p, currentHost())
		if err != nil {
			t.Fatal(err)
		}
		if err := equivalentBytes(fast.BPF, fresh.BPF, nativeArch()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	custom, _ := Resolve("default")
	custom.builtin = ""
	if _, ok := builtinProgram(custom); ok {
		t.Error("a profile not from Resolve got a precompiled program")
	}
}

// TestBuiltinsHostIndependent guards the assumption that makes
// precompiling sound: nothing in a built-in depends on the kernel or on
// capabilities, only on the architecture.
func TestBuiltinsHostIndependent(t *testing.T) {
	for _, name := range []string{"default", "strict"} {
		p, err := Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range p.Syscalls {
			for _, f := range []*Filter{s.Includes, s.Excludes} {
				if f != nil && (f.MinKernel != "" || len(f.Caps) > 0) {
					t.Errorf("%s: syscalls[%d] depends on the host: %+v", name, i, f)
				}
			}
		}
		if len(p.Architectures)+len(p.ArchMap)+len(p.Flags) > 0 {
			t.Errorf("%s: built-ins cover the native ABI only, with no flags", name)
		}
	}
}
