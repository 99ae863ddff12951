package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/profiles"
)

// ensureDirs creates the data dir (0700, with workspace/, which gets the
// data dir's owner; dataDirOwner judges the data dir once it exists), ~/.claude and sandbox mode's private /tmp when
// missing. A ~/.claude that cannot be
// made (a service's read-only or missing home) is left out with a
// warning: only Claude Code needs it.
func ensureDirs(p profiles.Policy, dataDirOwner func() error) error {
	_, err := os.Lstat(p.Workspace())
	newWorkspace := errors.Is(err, fs.ErrNotExist)
	for _, d := range []string{p.DataDir, p.Workspace(), p.ClaudeDir()} {
		err := homeMissing(p.Home, d)
		if err == nil {
			err = mkdirOwnerOnly(d)
		}
		if err == nil && d == p.DataDir {
			if err := dataDirOwner(); err != nil {
				return err
			}
		}
		if err != nil {
			if fi, lerr := os.Lstat(d); lerr == nil && !fi.IsDir() {
				return fmt.Errorf("cannot create %s: a %s is in its place (a program may have left it): remove it, and omega-run makes the directory", d, kindOf(fi))
			}
			if d == p.ClaudeDir() && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrNotExist)) {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				logrus.Warnf("cannot create %s (%v): it is left out of the writable set (Claude Code's state cannot be kept)", d, err)
				continue
			}
			return fmt.Errorf("cannot create %s: %w (choose another data dir with --data-dir or OMEGA_DATA_DIR)", d, pathErrOf(d, err))
		}
	}
	// Also one found empty and root's (a launch killed before it gave
	// away the one it made), at best: such a data dir has run before.
	if err := ownLikeDataDir(p.Workspace()); err != nil && newWorkspace {
		return fmt.Errorf("cannot give %s its data dir's owner: %w", p.Workspace(), err)
	}
	if p.Mode == ModeSandbox {
		if err := mkdirOwnerOnly(p.PrivateTmp()); err != nil {
			return fmt.Errorf("cannot create %s: %w (choose another data dir with --data-dir or OMEGA_DATA_DIR)", p.PrivateTmp(), pathErrOf(p.PrivateTmp(), err))
		}
		if err := protectableConfig(p); err != nil {
			return err
		}
	}
	return nil
}

// pathErrOf is err without "mkdir DIR:" when DIR is d, which the message
// names already; a parent that failed stays named.
func pathErrOf(d string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == d {
		return pe.Err
	}
	return err
}

// homeMissing refuses to make d where that would make the home it lies
// in: a missing home is an account's way of having none (Debian's
// /nonexistent, which other tools count on staying missing), and root
// would create it.
func homeMissing(home, d string) error {
	if home == "/" || !strings.HasPrefix(d, home+"/") {
		return nil
	}
	if _, err := os.Stat(home); errors.Is(err, fs.ErrNotExist) {
		return noHomeError(home)
	}
	return nil
}

type noHomeError string

func (e noHomeError) Error() string {
	return "home " + string(e) + " does not exist, and omega-run does not make it"
}
