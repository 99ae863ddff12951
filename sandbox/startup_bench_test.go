//go:build linux

package sandbox

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/sirupsen/logrus"
)

// BenchmarkPolicy measures Options.Policy: home, paths, profiles.New.
func BenchmarkPolicy(b *testing.B) {
	o := benchOptions(b, ModeSandbox)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := o.Policy(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommandContext measures everything the parent does before the
// clone, in process: the policy, resolving the program, the data dirs,
// the mount plan, Landlock rules and warnings, the seccomp program, and
// the JSON spec in its memfd. Run it with -cpuprofile/-memprofile to see
// where the parent's part of a launch goes (bench/PROFILE.md).
func BenchmarkCommandContext(b *testing.B) {
	for _, mode := range []Mode{ModeRX, ModeSandbox} {
		b.Run(string(mode), func(b *testing.B) {
			o := benchOptions(b, mode)
			b.ReportAllocs()
			for b.Loop() {
				cmd, err := o.CommandContext(context.Background(), "/bin/true")
				if err != nil {
					b.Fatal(err)
				}
				for _, f := range cmd.ExtraFiles {
					f.Close()
				}
			}
		})
	}
}

func benchOptions(b *testing.B, mode Mode) Options {
	b.Helper()
	out := logrus.StandardLogger().Out
	logrus.SetOutput(io.Discard) // per-launch warnings would flood the output
	b.Cleanup(func() { logrus.SetOutput(out) })
	home := b.TempDir()
	return Options{Mode: mode, Home: home, DataDir: filepath.Join(home, ".omega"), Workdir: home}
}
