package profiles

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Policy is what a backend enforces. Every path in it is absolute and clean.
type Policy struct {
	Mode    Mode
	DataDir string
	Home    string
	// Writable lists every root the program may write below: the data
	// dir, /tmp, ~/.claude and each --allow-write, in that order, without
	// duplicates.
	Writable []string
	// AllowWrite holds the user's own --allow-write paths (also in Writable).
	AllowWrite []string
	// Hide adds paths to the credential stores that sandbox mode hides.
	Hide []string
	// ReadOnly are subtrees of writable roots kept read-only (sandbox).
	ReadOnly []string
	// AllowSocket are unix sockets the program may reach on purpose.
	AllowSocket []string
	// WritableGitConfig leaves .git/hooks and .git/config writable.
	WritableGitConfig bool
	Net               Network
	// Seccomp names a built-in profile ("default", "strict", "none") or a
	// JSON profile file.
	Seccomp string
	// SeccompPath is Seccomp made absolute where the launcher read it (its
	// working directory then: it may move to --workdir after), for a
	// profile file; "" means filepath.Abs(Seccomp) now.
	SeccompPath string
	FailClosed  bool
	// LogDenials asks Landlock (ABI 7) to log the program's denied
	// accesses to the kernel audit log. Off by default, as the kernel
	// advises for programs that may try what they are denied: an agent
	// would flood the log.
	LogDenials bool
	// Config is a config file the caller read besides the data dir's
	// (--config); kept read-only in sandbox mode when writable.
	Config string
}

// DefaultDataDirName is the data dir below the invoking user's home.
const DefaultDataDirName = ".omega"

// ClaudeDirName is Claude Code's state directory below home, writable in
// every confined mode.
const ClaudeDirName = ".claude"

// New validates what a caller states and completes it: defaults (network
// host, seccomp default, data dir ~/.omega), clean paths, and the derived
// Writable set (any Writable passed in is ignored). Paths must already be
// absolute: resolving them against the caller's cwd is the caller's
// business.
func New(in Policy) (Policy, error) {
	if _, err := ParseMode(string(in.Mode)); err != nil {
		return Policy{}, err
	}
	if in.Net == "" {
		in.Net = NetHost
	}
	if _, err := ParseNetwork(string(in.Net)); err != nil {
		return Policy{}, err
	}
	if in.Seccomp == "" {
		in.Seccomp = SeccompDefault
		if in.Mode == ModeRWX {
			in.Seccomp = SeccompNone // what rwx does; an explicit profile is refused
		}
	}
	if !filepath.IsAbs(in.Home) {
		return Policy{}, fmt.Errorf("home %q is not an absolute path", in.Home)
	}
	if in.DataDir == "" {
		in.DataDir = filepath.Join(in.Home, DefaultDataDirName)
	}
	p := in
	p.DataDir, p.Home = filepath.Clean(in.DataDir), filepath.Clean(in.Home)
	for _, l := range []struct {
		flag string
		list *[]string
	}{{"--allow-write", &p.AllowWrite}, {"--hide", &p.Hide}, {"--read-only", &p.ReadOnly}, {"--allow-socket", &p.AllowSocket}} {
		cleaned, err := absClean(l.flag, *l.list)
		if err != nil {
			return Policy{}, err
		}
		if len(cleaned) > 1 {
			cleaned = dedupe(cleaned) // a path given twice warns and mounts once
		}
		*l.list = cleaned
	}
	if err := p.Validate(); err != nil {
		return Policy{}, err
	}
	p.Writable = dedupe(append([]string{p.DataDir, "/tmp", p.ClaudeDir()}, p.AllowWrite...))
	return p, nil
}

// absClean checks that every path is absolute and cleans it.
func absClean(flag string, paths []string) ([]string, error) {
	var out []string
	for _, path := range paths {
		if !filepath.IsAbs(path) {
			return nil, fmt.Errorf("%s %q is not an absolute path", flag, path)
		}
		out = append(out, filepath.Clean(path))
	}
	return out, nil
}

// ClaudeDir is ~/.claude.
func (p Policy) ClaudeDir() string { return filepath.Join(p.Home, ClaudeDirName) }

// PrivateTmp backs sandbox mode's /tmp, so what the program leaves there
// survives for inspection.
func (p Policy) PrivateTmp() string { return filepath.Join(p.DataDir, "tmp") }

// ConfigFileName is omega-run's (and the Omega gateway's) config file in
// the data dir.
const ConfigFileName = "config.toml"

// ConfigFiles are the config files that decide how later launches run
// and lie in a writable root: the data dir's (always), Config and a
// seccomp profile file when a writable root holds them. Sandbox mode
// keeps them read-only, or a program could rewrite its next launch's
// policy ("mode = rwx", a profile that allows everything).
func (p Policy) ConfigFiles() []string {
	out := []string{filepath.Join(p.DataDir, ConfigFileName)}
	for _, c := range []string{p.Config, p.SeccompFile()} {
		if c != "" && !slices.Contains(out, c) && p.WritableRootOf(c) != "" {
			out = append(out, c)
		}
	}
	return out
}

// SeccompFile is the absolute path of the seccomp profile file the
// launcher reads (relative to its working directory when it reads it,
// before it moves to --workdir), or "" for a built-in profile.
func (p Policy) SeccompFile() string {
	if p.Seccomp == "" || IsBuiltinSeccomp(p.Seccomp) {
		return ""
	}
	if p.SeccompPath != "" {
		return p.SeccompPath
	}
	abs, err := filepath.Abs(p.Seccomp)
	if err != nil {
		return ""
	}
	return abs
}

// ConfigKind names a file ConfigFiles returns, for messages.
func (p Policy) ConfigKind(file string) string {
	if file != "" && file == p.SeccompFile() {
		return "seccomp profile"
	}
	return "config file"
}

// Workspace is the data dir's workspace/ directory.
func (p Policy) Workspace() string { return filepath.Join(p.DataDir, "workspace") }

// Validate runs every check and returns the first failure.
func (p Policy) Validate() error {
	checks := []func(Policy) error{checkRWX, checkDataDir, checkAllowWrite, checkReadOnly}
	for _, c := range checks {
		if err := c(p); err != nil {
			return err
		}
	}
	return nil
}

func checkDataDir(p Policy) error {
	if !filepath.IsAbs(p.DataDir) {
		return fmt.Errorf("data dir %q is not an absolute path", p.DataDir)
	}
	if p.DataDir == "/" {
		return errors.New("data dir cannot be / (it would make everything writable)")
	}
	return nil
}

func checkAllowWrite(p Policy) error {
	if slices.Contains(p.AllowWrite, "/") && p.Mode != ModeRWX {
		return errors.New("--allow-write / would make everything writable; use --mode rwx instead")
	}
	return nil
}

func dedupe(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// checkReadOnly: --read-only narrows a writable root, which only the
// sandbox's mount namespace can do (Landlock rules only add rights);
// rwx is checkRWX's.
func checkReadOnly(p Policy) error {
	if len(p.ReadOnly) > 0 && p.Mode != ModeSandbox {
		return fmt.Errorf("--read-only needs --mode sandbox (in %s mode Landlock can only add rights, not take them away below a writable root)", p.Mode)
	}
	if len(p.Hide) > 0 && p.Mode != ModeSandbox {
		return fmt.Errorf("--hide needs --mode sandbox (%s mode has no mount namespace to hide anything with)", p.Mode)
	}
	return nil
}

// Within reports whether path is root or below it.
func Within(path, root string) bool {
	// The common case without filepath.Rel, which a launch calls for
	// every host socket times every mask (Windows compares names
	// case-insensitively: Rel does that).
	if filepath.Separator == '/' && filepath.IsAbs(path) && filepath.IsAbs(root) {
		path, root = filepath.Clean(path), filepath.Clean(root)
		return path == root || root == "/" || len(path) > len(root) && path[len(root)] == '/' && strings.HasPrefix(path, root)
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// ReachableWritable is WritableRootOf as the program sees the filesystem
// on Linux in sandbox mode, where the private /tmp replaces the host's: a
// path under host /tmp is out of the program's reach there unless another
// root (a data dir or --allow-write under /tmp) holds it.
func (p Policy) ReachableWritable(path string) string {
	for _, w := range p.Writable {
		if w == "/tmp" && p.Mode == ModeSandbox {
			continue
		}
		if Within(path, w) {
			return w
		}
	}
	return ""
}

// WritableRootOf returns the writable root path lies in, or "".
func (p Policy) WritableRootOf(path string) string {
	for _, w := range p.Writable {
		if Within(path, w) {
			return w
		}
	}
	return ""
}
