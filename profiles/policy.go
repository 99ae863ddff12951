package profiles

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
	Net        Network
	// Seccomp names a built-in profile ("default", "strict", "none") or a
	// JSON profile file.
	Seccomp    string
	FailClosed bool
}

// Input is what a caller states; New turns it into a Policy.
type Input struct {
	Mode       Mode
	DataDir    string // absolute; defaults to Home/.omega
	Home       string // absolute
	AllowWrite []string
	Net        Network
	Seccomp    string
	FailClosed bool
}

// DefaultDataDirName is the data dir below the invoking user's home.
const DefaultDataDirName = ".omega"

// ClaudeDirName is Claude Code's state directory below home, writable in
// every confined mode.
const ClaudeDirName = ".claude"

// New validates in and builds the Policy. Paths must already be absolute:
// resolving them against the caller's cwd is the caller's business.
func New(in Input) (Policy, error) {
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
	}
	if !filepath.IsAbs(in.Home) {
		return Policy{}, fmt.Errorf("home %q is not an absolute path", in.Home)
	}
	if in.DataDir == "" {
		in.DataDir = filepath.Join(in.Home, DefaultDataDirName)
	}
	p := Policy{
		Mode:       in.Mode,
		DataDir:    filepath.Clean(in.DataDir),
		Home:       filepath.Clean(in.Home),
		Net:        in.Net,
		Seccomp:    in.Seccomp,
		FailClosed: in.FailClosed,
	}
	for _, w := range in.AllowWrite {
		if !filepath.IsAbs(w) {
			return Policy{}, fmt.Errorf("--allow-write %q is not an absolute path", w)
		}
		p.AllowWrite = append(p.AllowWrite, filepath.Clean(w))
	}
	if err := p.Validate(); err != nil {
		return Policy{}, err
	}
	p.Writable = dedupe(append([]string{p.DataDir, "/tmp", p.ClaudeDir()}, p.AllowWrite...))
	return p, nil
}

// ClaudeDir is ~/.claude.
func (p Policy) ClaudeDir() string { return filepath.Join(p.Home, ClaudeDirName) }

// Workspace is the data dir's workspace/ directory.
func (p Policy) Workspace() string { return filepath.Join(p.DataDir, "workspace") }

// Validate runs every check and returns the first failure.
func (p Policy) Validate() error {
	checks := []func(Policy) error{checkDataDir, checkAllowWrite}
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
	if slices.Contains(p.AllowWrite, "/") {
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
