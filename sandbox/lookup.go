package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// lookup is where and as whom resolveProgram looks a program up.
type lookup struct {
	workdir string
	path    string // the program's PATH
	pathSet bool   // whether it has one
	// as is who runs the program, for the execute check.
	as runner
}

// runner is who runs the program: the caller as it is (rwx without
// --user, capabilities included; or the caller's own ids where it holds
// no capability): the kernel's own faccessat check decides, ACLs
// included; or else a uid and groups without capabilities (rx and sandbox
// mode drop them all; --user switches): the mode bits decide, as execve's
// permission check does for them, except that a POSIX ACL leaves it to
// execve.
type runner struct {
	caller bool
	uid    uint32
	gids   []uint32 // the primary group first
}

// resolveProgram finds program the way execvp would in the program's
// environment, deciding 127/126 before any namespace exists: a name with
// a slash is a path; a bare name is looked up in PATH (unset:
// defaultPath), relative entries from the workdir, and a match that is not
// executable gives 126 when nothing later in PATH runs.
func resolveProgram(program string, l lookup) (string, error) {
	if program == "" {
		return "", &Error{Code: ExitLauncher, Err: errors.New("no program given (usage: omega-run [flags] -- PROGRAM [ARGS...])")}
	}
	if !strings.Contains(program, "/") {
		return lookPath(program, l)
	}
	path := program
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.workdir, path)
	}
	if err := executable(path, l.as, map[string]bool{}); err != nil {
		return "", programErr(program, err)
	}
	return path, nil
}

// defaultPath is execvp's search path when PATH is unset (musl's).
const defaultPath = "/usr/local/bin:/bin:/usr/bin"

func lookPath(program string, l lookup) (string, error) {
	searchPath := l.path
	if !l.pathSet {
		searchPath = defaultPath
	}
	var denied error
	known := map[string]bool{} // directories the program may search
	for _, dir := range filepath.SplitList(searchPath) {
		path := filepath.Join(dir, program) // "" is the working directory
		if !filepath.IsAbs(path) {
			path = filepath.Join(l.workdir, path)
		}
		err := executable(path, l.as, known)
		if err == nil {
			return path, nil
		}
		if denied == nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errIsDir) {
			denied = err
		}
	}
	if denied != nil {
		return "", programErr(program, denied)
	}
	return "", &Error{Code: ExitNotFound, Err: fmt.Errorf("%s: command not found", program)}
}

var errIsDir = errors.New("is a directory")

// executable checks path as execve would, before running anything: as
// may search the directories on the way (known holds those already
// found searchable) and execute the file.
func executable(path string, as runner, known map[string]bool) error {
	st, err := walkPath(path, as, known)
	switch {
	case err != nil:
		return err
	case st.IsDir():
		return errIsDir
	case st.Mode()&0o111 == 0:
		return fs.ErrPermission
	}
	return mayExecute(path, st, as)
}

func programErr(program string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Code: ExitNotFound, Err: fmt.Errorf("%s: no such file or directory", program)}
	case errors.Is(err, fs.ErrPermission):
		return &Error{Code: ExitNotExecutable, Err: fmt.Errorf("%s: permission denied", program)}
	case errors.Is(err, errIsDir):
		return &Error{Code: ExitNotExecutable, Err: fmt.Errorf("%s: is a directory", program)}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Code: ExitNotExecutable, Err: fmt.Errorf("%s: %w", program, err)}
}

// lookup is how the program is found: from the workdir, in its own PATH.
func (o Options) lookup() lookup {
	l := lookup{workdir: o.workdir(), as: o.runner()}
	l.path, l.pathSet = o.Process.programPath()
	return l
}

// runner is who will run the program (lookup's execute check). Ids that
// do not resolve are validate's error to report; the caller's stand in.
func (o Options) runner() runner {
	id, err := o.Process.resolveIDs()
	if id == nil || err != nil {
		if o.Mode == ModeRWX {
			return runner{caller: true}
		}
		gids, _ := os.Getgroups()
		r := runner{uid: uint32(os.Getuid()), gids: []uint32{uint32(os.Getgid())}}
		for _, g := range gids {
			r.gids = append(r.gids, uint32(g))
		}
		return r.exact(effective())
	}
	return runner{uid: id.uid, gids: append([]uint32{id.gid}, id.groups...)}.exact(effective())
}

// credentials are the caller's effective ids and whether it holds any
// effective capability.
type credentials struct {
	uid     uint32
	gids    []uint32
	capable bool
}

// effective is the caller's credentials as faccessat(AT_EACCESS) uses
// them.
func effective() credentials {
	c := credentials{uid: uint32(os.Geteuid()), gids: []uint32{uint32(os.Getegid())}, capable: capable()}
	groups, _ := os.Getgroups()
	for _, g := range groups {
		c.gids = append(c.gids, uint32(g))
	}
	return c
}

// exact makes r the caller when r's uid and groups are the caller's and
// the caller has no capability that r would lack (the usual unprivileged
// launch): faccessat then answers for the program exactly, ACLs and path
// search included. Group sets compare as sets: the kernel asks only
// whether a group is among them.
func (r runner) exact(c credentials) runner {
	if r.caller || c.capable || r.uid != c.uid || !sameSet(r.gids, c.gids) {
		return r
	}
	return runner{caller: true}
}

// sameSet reports whether a and b hold the same ids, in any order and
// number.
func sameSet(a, b []uint32) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}
