//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPlantedConfigFIFO: a program in rx mode (where the data dir's
// config file is writable) leaves a FIFO, or a link to a device, in its
// place, or in the place of a seccomp profile that --seccomp names. The
// next launch, of any mode (a service's restart, as root), read them with
// a blocking open and never started; now each is refused (125), at once.
func TestPlantedConfigFIFO(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			w.timeout = 10 * time.Second
			cfg := filepath.Join(w.dataDir, "config.toml")
			profile := filepath.Join(w.dataDir, "workspace", "profile.json")
			writeFile(t, profile, `{"defaultAction":"SCMP_ACT_ALLOW"}`)
			chownTree(t, w.dataDir, u)
			plant := `rm -f "$0" "$1" && mkfifo "$0" "$1"`
			if r := w.run("--mode", "rx", "--seccomp", profile, "--", "/bin/sh", "-c", plant, cfg, profile); r.code != 0 {
				t.Fatalf("planting: exit %d, stderr %q", r.code, r.stderr)
			}
			r := w.run("--", "/bin/echo", "ran")
			if r.code != 125 || !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("config.toml a FIFO: exit %d, stdout %q, stderr %q; want 125, said", r.code, r.stdout, r.stderr)
			}
			r = w.run("--config", "/dev/null", "--seccomp", profile, "--", "/bin/echo", "ran")
			if r.code != 125 {
				t.Errorf("--seccomp naming a FIFO: exit %d, stdout %q, stderr %q; want 125", r.code, r.stdout, r.stderr)
			}
			syscall.Unlink(cfg)
			if err := syscall.Symlink("/dev/zero", cfg); err != nil {
				t.Fatal(err)
			}
			r = w.run("--mode", "rx", "--", "/bin/echo", "ran")
			if r.code != 125 || !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("config.toml a link to /dev/zero: exit %d, stdout %q, stderr %q; want 125, said", r.code, r.stdout, r.stderr)
			}
		})
	}
}
