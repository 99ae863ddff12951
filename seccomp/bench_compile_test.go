//go:build linux && cgo

package seccomp

import "testing"

// The Compile and Resolve benchmarks measure what every confined launch
// pays before the program starts. The built-ins come precompiled; the
// Libseccomp variants measure what compiling them at run time would cost.

func BenchmarkCompileDefault(b *testing.B)       { benchmarkCompile(b, "default") }
func BenchmarkCompileStrict(b *testing.B)        { benchmarkCompile(b, "strict") }
func BenchmarkCompileDockerDefault(b *testing.B) { benchmarkCompile(b, dockerDefault) }

func BenchmarkCompileDefaultLibseccomp(b *testing.B) { benchmarkLibseccomp(b, "default") }
func BenchmarkCompileStrictLibseccomp(b *testing.B)  { benchmarkLibseccomp(b, "strict") }

func benchmarkLibseccomp(b *testing.B, name string) {
	p, err := Resolve(name)
	if err != nil {
		b.Fatal(err)
	}
	h := currentHost()
	for b.Loop() {
		if _, _, err := compileFor(p, h); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveDefault(b *testing.B) {
	for b.Loop() {
		if _, err := Resolve("default"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkCompile(b *testing.B, name string) {
	p, err := Resolve(name)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := Compile(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveStrict(b *testing.B) {
	for b.Loop() {
		if _, err := Resolve("strict"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseDockerDefault(b *testing.B) {
	for b.Loop() {
		if _, err := Resolve(dockerDefault); err != nil {
			b.Fatal(err)
		}
	}
}
