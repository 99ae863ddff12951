//go:build linux

package landlock

import (
	"runtime"
	"testing"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// BenchmarkRestrictThread measures what the init stage (sandbox) or the
// process itself (rx) pays to apply the rules: create the ruleset, open
// every path, add one rule per path, restrict the thread.
//
// Restricting cannot be undone, so each iteration runs on a fresh OS
// thread that dies with its goroutine (LockOSThread without Unlock). The
// runtime starts new threads from its template thread while a goroutine
// holds a locked thread, so no other thread inherits the domain.
// "thread" is the same loop without Landlock: subtract it.
func BenchmarkRestrictThread(b *testing.B) {
	if ABI() < 1 {
		b.Skip("Landlock is unavailable")
	}
	r := FromPolicy(benchPolicy(b, profiles.ModeSandbox))
	run := func(b *testing.B, restrict bool) {
		b.ReportAllocs()
		for b.Loop() {
			errc := make(chan error, 1)
			go func() {
				runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
				if !restrict {
					errc <- nil
					return
				}
				if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
					errc <- err
					return
				}
				_, err := RestrictThread(r)
				errc <- err
			}()
			if err := <-errc; err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("thread", func(b *testing.B) { run(b, false) })
	b.Run("restrict", func(b *testing.B) { run(b, true) })
}
