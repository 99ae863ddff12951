//go:build linux && cgo

package seccomp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// The Startup benchmarks measure the seccomp work of one confined launch
// end to end, as the parent does it: Resolve then Compile.

// BenchmarkStartupResolveCompileDefault is the built-in default profile
// (--seccomp default, what every launch uses unless told otherwise).
func BenchmarkStartupResolveCompileDefault(b *testing.B) {
	benchmarkResolveCompile(b, "default")
}

// BenchmarkStartupResolveCompileDefaultFile is the same profile read from
// a file, as a custom --seccomp FILE is: JSON parsing and libseccomp at
// run time.
func BenchmarkStartupResolveCompileDefaultFile(b *testing.B) {
	data, ok := profiles.BuiltinSeccomp(profiles.SeccompDefault)
	if !ok {
		b.Fatal("no built-in default profile")
	}
	path := filepath.Join(b.TempDir(), "default.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	benchmarkResolveCompile(b, path)
}

func benchmarkResolveCompile(b *testing.B, name string) {
	b.ReportAllocs()
	for b.Loop() {
		p, err := Resolve(name)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := Compile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartupProgramJSON is the compiled program's round trip
// through the JSON spec the parent hands to the init stage.
func BenchmarkStartupProgramJSON(b *testing.B) {
	p, err := Resolve("default")
	if err != nil {
		b.Fatal(err)
	}
	prog, _, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		data, err := json.Marshal(prog)
		if err != nil {
			b.Fatal(err)
		}
		var back Program
		if err := json.Unmarshal(data, &back); err != nil {
			b.Fatal(err)
		}
	}
}
