//go:build linux

package static

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omega-run/omega-run/landlock"
)

// Stamped into the test build as the Makefile stamps releases.
const (
	testVersion = "v0.0.0-static-test"
	testCommit  = "0123abc"
)

// repo is the module root (the script cds there itself).
const repo = "../.."

// built is the static binary, built once for the package.
var built struct {
	once       sync.Once
	dir, bin   string
	skip, fail string
}

// staticBinary builds omega-run with scripts/build-static.sh, exactly as
// `make static` does, and returns its path.
func staticBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: building the static binary takes minutes on a cold build cache")
	}
	deadline, _ := t.Deadline()
	built.once.Do(func() { buildStatic(deadline) })
	if built.skip != "" {
		t.Skip(built.skip)
	}
	if built.fail != "" {
		t.Fatal(built.fail)
	}
	return built.bin
}

// buildStatic builds with the test binary's time, less half a minute to
// report a build that hangs with its output: a cold build cache and the
// first musl libseccomp build took 170-187 s at load 18 on 2 vCPUs, past
// the 3 min it had had. A zero deadline (-timeout 0) sets none.
func buildStatic(deadline time.Time) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		built.skip = "scripts/build-static.sh knows amd64 and arm64 only, not " + runtime.GOARCH
		return
	}
	for _, tool := range []string{"gcc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			built.skip = tool + " is not installed (make deps installs it)"
			return
		}
	}
	dir, err := os.MkdirTemp("", "omega-static-")
	if err != nil {
		built.fail = err.Error()
		return
	}
	built.dir, built.bin = dir, filepath.Join(dir, "omega-run")
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if !deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
	}
	defer cancel()
	script, err := filepath.Abs(filepath.Join(repo, "scripts", "build-static.sh"))
	if err != nil {
		built.fail = err.Error()
		return
	}
	cmd := exec.CommandContext(ctx, script, built.bin)
	cmd.Env = append(os.Environ(), "GOARCH="+runtime.GOARCH,
		"LDFLAGS=-X main.version="+testVersion+" -X main.commit="+testCommit)
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil && bytes.Contains(out, []byte("not found; run:")):
		built.skip = strings.TrimSpace(string(out)) + " (make deps installs it)"
	case err != nil:
		built.fail = "scripts/build-static.sh: " + err.Error() + "\n" + string(out)
	case bytes.Contains(out, []byte("statically linked applications requires")):
		// glibc's NSS or getaddrinfo would be dlopened at run time: the
		// binary would not be self-contained after all.
		built.fail = "the static link warns about glibc functions that need shared libraries:\n" + string(out)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func TestNoInterpreterNoSharedLibraries(t *testing.T) {
	bin := staticBinary(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("program header %v: want none (a static binary has no interpreter and no dynamic section)", p.Type)
		}
	}
	for _, name := range []string{".interp", ".dynamic"} {
		if f.Section(name) != nil {
			t.Errorf("section %s present", name)
		}
	}
	if libs, err := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("DT_NEEDED: %q (err %v), want none", libs, err)
	}
	if f.Section(".symtab") != nil {
		t.Error("symbol table present: the binary is not stripped (-s -w)")
	}
	if want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[runtime.GOARCH]; f.Machine != want {
		t.Errorf("machine %v, want %v", f.Machine, want)
	}
}

// TestLinksMusl: the release build links musl, not glibc (whose start-up
// costs 0.3-0.7 ms more per launch, bench/PROFILE.md), with the 1 MiB
// default thread stack scripts/musl-env.sh asks for (musl's own is
// 128 KiB). glibc's static start-up code carries its tunables' names.
func TestLinksMusl(t *testing.T) {
	bin := staticBinary(t)
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("glibc.cpu.")) {
		t.Error("the binary carries glibc's tunables: it links glibc, not musl")
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stack := false
	for _, p := range f.Progs {
		if p.Type == elf.PT_GNU_STACK {
			stack = true
			if p.Memsz != 1<<20 {
				t.Errorf("PT_GNU_STACK size %d, want 1 MiB for the threads musl starts", p.Memsz)
			}
		}
	}
	if !stack {
		t.Error("no PT_GNU_STACK: musl's threads get its 128 KiB default stacks")
	}
}

func TestVersionOutput(t *testing.T) {
	bin := staticBinary(t)
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("--version: %v\n%s", err, out)
	}
	text := string(out)
	libseccomp := `\d+\.\d+\.\d+`
	if v, err := exec.Command("pkg-config", "--modversion", "libseccomp").Output(); err == nil {
		libseccomp = regexp.QuoteMeta(strings.TrimSpace(string(v)))
	}
	for _, want := range []string{
		`(?m)^omega-run version ` + regexp.QuoteMeta(testVersion) + `$`,
		`(?m)^\s+commit:\s+` + testCommit + `$`,
		`(?m)^\s+go:\s+` + regexp.QuoteMeta(runtime.Version()) + ` linux/` + runtime.GOARCH + `$`,
		`(?m)^\s+seccomp:\s+compiled in$`,
		`(?m)^\s+libseccomp:\s+` + libseccomp + `$`, // linked in: the build host's version
		`(?m)^\s+landlock:\s+ABI ` + regexp.QuoteMeta(landlockText()) + `$`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("--version output does not match %s:\n%s", want, text)
		}
	}
}

// landlockText is what --version should say about this kernel.
func landlockText() string {
	if abi := landlock.ABI(); abi > 0 {
		return strconv.Itoa(abi)
	}
	return "0 (not offered by this kernel)"
}

// TestConfinesInEmptyRoot runs the static binary under bwrap in a root
// that holds nothing but the binary, a static probe, /proc and empty
// directories: no /etc, no shared libraries, no shell. The probe tries
// to create files outside and inside the writable set; the test checks
// from outside the root which ones exist.
func TestConfinesInEmptyRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("requires root: bwrap runs without a user namespace so that omega-run can create its own")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed (make deps installs bubblewrap)")
	}
	bin := staticBinary(t)
	root := t.TempDir()
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// Mount points and the writable set; omega-run mounts its own /dev.
	for _, d := range []string{"proc", "dev", "home", "data", "w"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, bin, filepath.Join(root, "omega-run"))
	probe := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(root, "probe"), "./probe")
	probe.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("building the probe: %v\n%s", err, out)
	}

	modes := []string{"sandbox", "rx"}
	if landlock.ABI() == 0 {
		t.Log("no Landlock on this kernel: rx mode cannot confine writes, only sandbox mode is checked")
		modes = modes[:1]
	}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			outside := []string{"/outside-" + mode, "/home/outside-" + mode, "/proc/self/root/via-proc-" + mode}
			inside := []string{"/w/inside-" + mode, "/data/inside-" + mode}
			// The host's /proc, bound: bwrap's own --proc covers /proc/bus
			// and /proc/irq, and the kernel refuses the fresh /proc that
			// omega-run mounts in its user namespace while any proc mount
			// is partly covered. bwrap runs as root without --unshare-user,
			// so that omega-run creates the user namespace (pivot_root, not
			// chroot: a chrooted process may not create one).
			args := []string{"--bind", root, "/", "--bind", "/proc", "/proc", "--chdir", "/", "--die-with-parent", "--",
				"/omega-run", "--mode", mode, "--data-dir", "/data", "--allow-write", "/w", "--", "/probe"}
			args = append(append(args, outside...), inside...)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bwrap, args...)
			cmd.Env = []string{"HOME=/home"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			t.Logf("bwrap %s\nstdout:\n%sstderr:\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
			if err != nil {
				t.Fatalf("confined run failed: %v", err)
			}
			got := stdout.String()
			for _, p := range outside {
				if strings.Contains(got, "create "+p+": ok") {
					t.Errorf("the probe created %s outside the writable set", p)
				}
				if _, err := os.Stat(filepath.Join(root, strings.TrimPrefix(p, "/proc/self/root"))); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s exists in the root (stat: %v): a write outside the writable set got through", p, err)
				}
			}
			for _, p := range inside {
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s inside the writable set was not written: %v", p, err)
				}
			}
			for _, want := range []string{"NoNewPrivs: 1", "Seccomp: 2"} {
				if !strings.Contains(got, want) {
					t.Errorf("probe output lacks %q: no_new_privs or the seccomp filter (libseccomp, linked in) is missing", want)
				}
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
