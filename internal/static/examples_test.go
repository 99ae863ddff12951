//go:build linux

package static

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSystemdUnitVerifies runs systemd-analyze verify on the README's
// unit, with its programs pointed at ones that exist here.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	unit, err := os.ReadFile(filepath.Join(repo, "examples", "systemd", "svc.service"))
	if err != nil {
		t.Fatal(err)
	}
	bin := staticBinary(t)
	text := strings.ReplaceAll(string(unit), "/usr/local/bin/omega-run", bin)
	text = strings.ReplaceAll(text, "/usr/bin/svc", "/bin/sleep")
	dir := t.TempDir()
	path := filepath.Join(dir, "svc.service")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	// Without a running systemd it may only complain about the bus.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "svc.service") && !strings.Contains(line, "bus") {
			t.Errorf("systemd-analyze verify: %s", line)
		}
	}
	if err != nil && !strings.Contains(string(out), "bus") && len(out) > 0 {
		t.Errorf("systemd-analyze verify failed: %v\n%s", err, out)
	}
}

// TestContainerExample builds the image the Containerfile describes as a
// root directory (its COPY lines, with the static binary and a static
// program) and runs its ENTRYPOINT there: nothing else is in the root.
func TestContainerExample(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root, like TestConfinesInEmptyRoot")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed (make deps installs bubblewrap)")
	}
	copies, entry, workdirs := parseContainerfile(t, filepath.Join(repo, "examples", "container", "Containerfile"))
	root := t.TempDir()
	os.Chmod(root, 0o755)
	sources := map[string]string{"dist/omega-run-linux-amd64": staticBinary(t), "app": buildProbe(t)}
	for src, dst := range copies {
		from, ok := sources[src]
		if !ok {
			t.Fatalf("Containerfile copies %s, which the test does not know how to provide", src)
		}
		copyFile(t, from, filepath.Join(root, dst))
	}
	// Only what a container engine adds: /proc, /dev, each WORKDIR
	// (made by the build; the last one is the working directory), and
	// HOME=/ for a root with no /etc/passwd. Before, the test made /w
	// too, and the image as built failed: --allow-write /w, no such
	// directory; and with no /tmp the program had none.
	for _, d := range append([]string{"proc", "dev"}, workdirs...) {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	cwd := "/"
	if len(workdirs) > 0 {
		cwd += workdirs[len(workdirs)-1]
	}
	args := append([]string{"--bind", root, "/", "--bind", "/proc", "/proc", "--chdir", cwd, "--die-with-parent", "--"}, entry...)
	args = append(args, "/outside-image", "/w/inside-image", "/tmp/inside-tmp")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bwrap, args...)
	cmd.Env = []string{"HOME=/"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the image's entrypoint failed: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(root, "outside-image")); err == nil {
		t.Error("a write outside the writable set got through in the image")
	}
	if _, err := os.Stat(filepath.Join(root, "w", "inside-image")); err != nil {
		t.Errorf("the write to /w failed: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(root, "data", "tmp", "inside-tmp")); err != nil || strings.Contains(out.String(), "no /tmp") {
		t.Errorf("the write to the private /tmp failed: %v\n%s", err, out.String())
	}
}

// parseContainerfile returns the COPY sources → destinations, the
// ENTRYPOINT argv and the WORKDIRs in order (relative to the root).
func parseContainerfile(t *testing.T, path string) (map[string]string, []string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	copies := map[string]string{}
	var entry []string
	var workdirs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 3 && fields[0] == "COPY":
			copies[fields[1]] = fields[2]
		case len(fields) == 2 && fields[0] == "WORKDIR":
			workdirs = append(workdirs, strings.TrimPrefix(fields[1], "/"))
		case len(fields) > 1 && fields[0] == "ENTRYPOINT":
			if err := json.Unmarshal([]byte(strings.TrimPrefix(sc.Text(), "ENTRYPOINT ")), &entry); err != nil {
				t.Fatalf("ENTRYPOINT: %v", err)
			}
		}
	}
	if len(copies) == 0 || len(entry) == 0 {
		t.Fatal("Containerfile has no COPY or ENTRYPOINT")
	}
	return copies, entry, workdirs
}

func buildProbe(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "probe")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "./probe")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the probe: %v\n%s", err, b)
	}
	return out
}
