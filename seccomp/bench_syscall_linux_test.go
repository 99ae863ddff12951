//go:build linux && cgo

package seccomp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkSyscall measures what a filter costs a confined program per
// syscall: a tight loop in a re-executed test binary (a filter cannot be
// removed), with no filter and under each profile. getppid is a syscall
// no profile checks, so the kernel's filter cache answers it without
// running the filter; ioctl is one the guard checks (TIOCSTI), so the
// filter runs on every call. ns/op is per syscall.
func BenchmarkSyscall(b *testing.B) {
	for _, profile := range []string{"none", "default", "strict", dockerDefault} {
		for _, syscall := range []string{"getppid", "ioctl"} {
			b.Run(strings.TrimSuffix(filepath.Base(profile), ".json")+"/"+syscall, func(b *testing.B) {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%s:%d", loopEnv, profile, syscall, b.N))
				out, err := cmd.CombinedOutput()
				_, ns, ok := strings.Cut(string(out), loopOut)
				total, perr := strconv.ParseInt(strings.TrimSpace(ns), 10, 64)
				if err != nil || !ok || perr != nil {
					b.Fatalf("loop: %v\n%s", err, out)
				}
				b.ReportMetric(float64(total)/float64(b.N), "ns/op")
			})
		}
	}
}
