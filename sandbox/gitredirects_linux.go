package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// redirect is a place a git config sends git to, and what it is.
type redirect struct{ path, what string }

// redirects holds what gitDir's configs send git to (gitRedirects:
// core.hooksPath, included configs, and what those include) inside the
// writable set: read-only where it exists. Where it does not yet, the
// program could make it: changes reports it after the run.
func (g *gitScan) redirects(gitDir, worktree string) []string {
	var out []string
	configs := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	for depth := 0; depth < 4 && len(configs) > 0; depth++ { // git's own limit is 10
		var next []string
		for _, c := range configs {
			if g.configs[c] || len(g.configs) >= maxGitConfigs {
				continue
			}
			g.configs[c] = true
			b, err := g.readConfig(c)
			if err != nil {
				continue
			}
			r := parseGitRedirects(string(b))
			for _, h := range r.hooks {
				out = g.holdHooks(out, gitPath(h, g.home, worktree), c)
			}
			for _, inc := range r.includes {
				p := gitPath(inc, g.home, filepath.Dir(c))
				out = g.hold(out, p, "a config "+c+" includes")
				next = append(next, p)
			}
		}
		configs = next
	}
	return out
}

// holdHooks holds the hooks in dir, the hooks directory config c names
// (core.hooksPath), and what husky's hooks there run: the scripts they
// source (v9's h, v8's husky.sh and _/husky.sh) and, for v9's stubs in
// .husky/_, the user's hooks in .husky that they run. The named files
// only, not the directories: a planted config naming a project directory
// (hooksPath = ..) must not make it read-only.
func (g *gitScan) holdHooks(out []string, dir, c string) []string {
	if real, err := filepath.EvalSymlinks(dir); err == nil && g.throughLink(dir, real) && g.writable(real) {
		// One warning for the directory, not one per hook.
		g.warnings = append(g.warnings, dir+", the hooks directory "+c+" names (core.hooksPath), is reached through a symlink: its hooks in "+real+" are"+keptLinkWords)
		dir = real
	}
	what := "a hook in the directory " + c + " names (core.hooksPath)"
	for _, name := range gitHookNames {
		out = g.hold(out, filepath.Join(dir, name), what)
	}
	for _, n := range []string{"h", "husky.sh", "_/husky.sh"} {
		if p := filepath.Join(dir, n); isRegular(p) {
			out = g.hold(out, p, "a script the hooks in the directory "+c+" names (core.hooksPath) source")
		}
	}
	if filepath.Base(dir) == "_" && isRegular(filepath.Join(dir, "h")) {
		what := "a hook husky's stubs in the directory " + c + " names (core.hooksPath) run"
		for _, name := range gitHookNames {
			out = g.hold(out, filepath.Join(filepath.Dir(dir), name), what)
		}
	}
	return out
}

// isRegular says whether p leads to a regular file.
func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// hold adds the file p to out when it exists in the writable set, and
// records it when it does not exist yet. A directory is not held: a
// config naming one (include.path = ..) would make it read-only. A
// symlink is held where it points, with a warning, as a .git symlink is:
// the link itself can be re-pointed.
func (g *gitScan) hold(out []string, p, what string) []string {
	named, linked := p, false
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p, linked = real, g.throughLink(named, real)
	}
	switch {
	case !g.writable(p):
		return out // out of the program's reach
	case isDir(p):
		g.warnings = append(g.warnings, p+", "+what+", is a directory: it is not kept read-only, and what the program writes there git may run")
		return out
	case exists(p):
		if linked {
			g.warnings = append(g.warnings, named+", "+what+", is reached through a symlink: "+p+" is"+keptLinkWords)
		}
		return append(out, p)
	}
	g.unmade = append(g.unmade, redirect{p, what})
	return out
}

// throughLink says whether p, resolved to real, is reached through a
// symlink below its writable root, which the program could re-point; a
// symlink on the way to the root (/home -> /var/home) is the user's.
func (g *gitScan) throughLink(p, real string) bool { return real != g.canonical(p) }

// readConfig reads a config the scan follows, which a planted config may
// name anywhere (include.path = /proc/kmsg, a host FIFO, a device that
// acts on open): only one that resolves inside the writable set, which
// the program could have written (what lies outside it cannot be planted
// by the program), and only a regular file (readFileAt).
func (g *gitScan) readConfig(c string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(c)
	if err != nil {
		return nil, err
	}
	if !g.writable(real) {
		return nil, errors.New("outside the writable set")
	}
	return readFileAt(real, true, 1<<20)
}

// readFileAt reads path when it is a regular file of at most max bytes,
// without opening anything else: path is opened as a path first (O_PATH
// opens no FIFO or device, and follows no last symlink; noSymlinks: none
// anywhere, where openat2 exists), and reopened for reading through
// /proc/self/fd once fstat says it is a regular file.
func readFileAt(path string, noSymlinks bool, max int64) ([]byte, error) {
	flags := unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := -1, error(unix.ENOSYS)
	if noSymlinks {
		fd, err = unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_NO_SYMLINKS})
		if err == nil && fd <= 2 { // a filter's errno 0: see openDirNoSymlinks
			fd, err = -1, unix.ENOSYS
		}
	}
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		fd, err = unix.Open(path, flags, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	f, size, err := reopenRegular(fd, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}
