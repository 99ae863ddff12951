//go:build linux

package sandbox

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

var updateFilters = flag.Bool("update", false, "rewrite testdata/filters_<goarch>.golden (cgo builds only)")

// TestLaunchFiltersWithoutCgo: the filters a launch installs under the
// built-in profiles, in each variant (sandbox mode with its mounts, or
// sharing the host's namespaces as rx and the fallback do; --net host or
// none; the connect broker folded in or not), are the same bytes in
// every build. The golden file is written by a cgo build (libseccomp);
// a CGO_ENABLED=0 build must find the very same programs, or it would
// enforce something other than what the cgo build does.
func TestLaunchFiltersWithoutCgo(t *testing.T) {
	golden := filepath.Join("testdata", "filters_"+runtime.GOARCH+".golden")
	got := launchFilterDigests(t)
	if *updateFilters {
		if !seccomp.Enabled {
			t.Fatal("-update needs a cgo build: the golden programs are libseccomp's")
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if os.IsNotExist(err) {
		t.Skipf("no %s: run go test -update ./sandbox with cgo on %s", golden, runtime.GOARCH)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("launch filters differ from the cgo build's (%s; cgo: %v):\ngot:\n%s\nwant:\n%s", golden, seccomp.Enabled, got, want)
	}
}

// launchFilterDigests lists each variant's program: length in
// instructions and SHA-256 of its bytes.
func launchFilterDigests(t *testing.T) []byte {
	var b strings.Builder
	for _, prof := range []string{profiles.SeccompDefault, profiles.SeccompStrict} {
		for _, shape := range []struct {
			mode            profiles.Mode
			mounts, hostNet bool
			name            string
		}{{profiles.ModeSandbox, true, false, "sandbox"}, {profiles.ModeRX, false, false, "host-namespaces"},
			{profiles.ModeSandbox, true, true, "sandbox-inet-fd"}} {
			for _, net := range []profiles.Network{profiles.NetHost, profiles.NetNone} {
				if shape.hostNet && net != profiles.NetNone {
					continue // buildSpec asks for it with --net none only
				}
				pol := profiles.Policy{Mode: shape.mode, Seccomp: prof, Net: net}
				prog, warnings, err := launchFilter(pol, true, nil, shape.mounts, shape.hostNet)
				if err != nil || len(warnings) > 0 || prog == nil {
					t.Fatalf("%s %s --net %s: %v, warnings %q", prof, shape.name, net, err, warnings)
				}
				name := fmt.Sprintf("%s %s net=%s", prof, shape.name, net)
				fmt.Fprintf(&b, "%-40s %s\n", name, filterDigest(prog))
				if !shape.mounts {
					continue // no PID 1, no broker
				}
				brokered, err := seccomp.WithConnectBroker(prog)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%-40s %s\n", name+" broker", filterDigest(brokered))
			}
		}
	}
	return []byte(b.String())
}

func filterDigest(p *seccomp.Program) string {
	return fmt.Sprintf("%4d insns flags %d sha256 %x", p.Len(), p.Flags, sha256.Sum256(p.BPF))
}
