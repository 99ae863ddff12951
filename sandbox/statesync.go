package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/profiles"
)

// stateSync is one profiles.StateSync in progress: the home file as it was
// when copied in, and what the working copy held then.
type stateSync struct {
	home, work string
	// real is home resolved (openHome); roots are what the program may
	// change (homeRoots), which home may not be reached through.
	real, name string
	roots      []string
	// hidden are the credential stores (hiddenStores); claude: the
	// state is Claude Code's, a JSON object in a file named for it
	// (checkTarget, checkState).
	hidden []string
	claude bool
	// id is the home file's as read: the one written back.
	id fileID
	// attrs are the home file's mode and owner, which the working copy
	// gets.
	attrs fileAttrs
	// before is the home file's digest when the working copy was made
	// from it (stateDigest; existed false: there was none). A session
	// that joins another's working copy takes it from the base file.
	before  digest
	existed bool
	// homeSize is the home file's size as read: the working copy may
	// grow past maxState with it (workCopyMax).
	homeSize int
	// lock is held shared on the working copy's directory while the
	// program runs: concurrent launches (two Claude Code sessions) share
	// one working copy, and only the last one out copies it back.
	lock *os.File
	// unlocked: the launch shares the working copy without the lock
	// (syncContested, or stateShare lost it), so it cannot tell whether
	// it is the last one out until it takes the lock at the end.
	unlocked bool
	done     bool
	// stop ends a wait for the lock (syncInUntil).
	stop chan os.Signal
	// shown names Claude Code's state file in the report ("" for other
	// files); changed is what syncOut found the program changed there.
	shown   string
	changed []string
}

// syncIn copies each home state file into its working copy, so that the
// confined program starts from the user's current state. writable is the
// policy's writable roots: a home file that the program could re-point
// there (a symlink into ~/.claude) is not synced, with a warning.
func syncIn(home string, writable []string, prog *profiles.Program, hide ...string) ([]*stateSync, error) {
	return syncInUntil(nil, home, writable, prog, hide...)
}

// syncInUntil is syncIn that gives up a wait for the state lock when a
// terminating signal arrives on stop (the launch's caught signals;
// *interruptedError), and puts the others back once it is done.
func syncInUntil(stop chan os.Signal, home string, writable []string, prog *profiles.Program, hide ...string) ([]*stateSync, error) {
	roots, hidden := homeRoots(writable, prog, home), hiddenStores(home, hide...)
	var out []*stateSync
	for _, s := range prog.Sync {
		st := &stateSync{home: filepath.Join(home, s.Home), work: filepath.Join(home, s.Work), roots: roots, hidden: hidden, attrs: newAttrs, stop: stop}
		if s.Home == profiles.ClaudeStateName {
			st.shown, st.claude = shown(home, st.home), true
		}
		st.name = shown(home, st.home)
		h, err := st.open()
		switch {
		case refusal(err) != "":
			logrus.Warn(refusal(err))
			continue
		case errors.Is(err, fs.ErrNotExist):
			// A dangling link into a directory that is gone: nowhere
			// to put the state back.
			logrus.Warnf("state sync: %s is not synced: %s", st.name, termsafe.String(err.Error()))
			continue
		case err != nil:
			return nil, fmt.Errorf("state sync: %s: %w", st.home, err)
		}
		st.real = h.real
		err = st.start(h)
		h.close()
		if w := refusal(err); w != "" {
			logrus.Warn(w)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// open resolves and opens the home file (openHome) and refuses a target
// that is no place for the state (checkTarget).
func (st *stateSync) open() (*homeFile, error) {
	h, err := openHome(st.home, st.name, st.roots)
	if err != nil {
		return nil, err
	}
	if err := st.checkTarget(h); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// start locks the working copy's directory and makes the working copy
// from h, the home file, or joins another launch's.
func (st *stateSync) start(h *homeFile) error {
	var mode syncMode
	var err error
	st.lock, mode, err = lockState(filepath.Dir(st.work), st.stop)
	if err != nil {
		return err
	}
	if mode == syncContested {
		st.unlocked = true
		logrus.Warnf("state sync: the lock on %s stayed taken for 5 s, not by another launch (a program holding it?): the working copy is shared as it is, and goes home only if this launch ends last", filepath.Dir(st.work))
	}
	if mode != syncAlone {
		// Another launch's program runs on the working copy: this
		// one shares it as it is, as two unconfined runs share the
		// home file.
		if err := st.join(h); err != nil {
			st.unlock()
			return fmt.Errorf("state sync: %w", err)
		}
		return nil
	}
	if st.lock != nil {
		// Alone on the working copy: temporary files beside it and home's
		// are a killed launch's.
		h.removeTemps()
		removeTemps(int(st.lock.Fd()), filepath.Base(st.work), filepath.Base(st.base()))
	}
	if err := st.copyIn(h); err != nil {
		st.unlock()
		return err
	}
	// For sessions that join before this one ends: home as the
	// working copy was made from it.
	if err := atomicWrite(st.base(), []byte(st.before.line(st.existed)), st.attrs); err != nil {
		st.unlock()
		if fi, lerr := os.Lstat(st.base()); lerr == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("state sync: %s is not a regular file (a program may have left it): remove it", st.base())
		}
		return fmt.Errorf("state sync: %w", err)
	}
	had := st.lock != nil
	st.lock = stateShare(st.lock)
	st.unlocked = had && st.lock == nil
	return nil
}

// copyIn makes the working copy from h, the home file.
func (st *stateSync) copyIn(h *homeFile) error {
	// Regular files only, without blocking: with --allow-write ~ a
	// confined run could leave a FIFO or a link to /dev/zero at either
	// path, and the next launch would never get past this read. The
	// home file may be a symlink (dotfile managers; resolved by
	// openHome) and large (Claude Code's grows to hundreds of MB).
	data, attrs, err := st.readHome(h)
	if _, ok := err.(*unfitHomeError); ok {
		return err
	}
	switch {
	case err == nil:
		if fi, err := os.Lstat(st.work); err == nil && fi.IsDir() {
			return fmt.Errorf("state sync: %s is a directory (a program may have left it): remove it, and omega-run copies %s there again", st.work, st.home)
		}
		if err := keepLeftover(st.work, data); err != nil {
			return fmt.Errorf("state sync: %w", err)
		}
		if err := atomicWrite(st.work, data, attrs); err != nil {
			return fmt.Errorf("state sync: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
		// Whatever an earlier run left is the state the program starts
		// from, however large; a regular file, not followed if a link,
		// as syncOut reads it. Opened, not read: a sparse 1 TiB file
		// would take the launcher's memory on every launch.
		if err := checkRegular(st.work); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state sync: %s: %v, and there is no %s: remove it (a program may have left it)", st.work, err, st.home)
		}
	default:
		return fmt.Errorf("state sync: %s: %w", st.home, err)
	}
	return nil
}

// syncOut copies a changed working copy back to home, unless home changed
// meanwhile (an unconfined run): then the working copy stays and the
// returned warning says so. The working copy is removed once home has it.
func (st *stateSync) syncOut() (string, error) {
	if st.done {
		return "", nil
	}
	st.done = true
	defer st.unlock()
	if st.unlocked {
		// Another launch's program may run on the working copy: removed
		// or copied home from under it, its Claude started afresh, and
		// that fresh state replaced home's at its copy back
		// (TestContestedSessionLeavesSharedCopy).
		if st.lock = lockAlone(filepath.Dir(st.work)); st.lock == nil {
			return "", nil
		}
	} else if !lastOut(st.lock) {
		return "", nil // another launch's program still runs on it
	}
	data, err := readWorkCopy(st.work, st.homeSize)
	if errors.Is(err, fs.ErrNotExist) {
		_ = os.Remove(st.base())
		return "", nil
	}
	if err != nil {
		return fmt.Sprintf("%s is not copied back to %s: %v", st.work, st.home, err), nil
	}
	if st.existed && stateDigest(data) == st.before {
		// Nothing to copy back (a shell session that never ran
		// claude): a change to home meanwhile is the user's own, not
		// a conflict to warn about and keep the copy for.
		return "", st.removeWork()
	}
	// Home is resolved and checked again (a link re-pointed since is the
	// user's, or refused), then digested and written through the one
	// directory descriptor: nothing renamed in between redirects the
	// write.
	h, err := st.open()
	if w := refusal(err); w != "" {
		return fmt.Sprintf("%s; the program's state stays in %s", w, st.work), nil
	}
	if err != nil {
		return fmt.Sprintf("%s is not copied back to %s: %v", st.work, st.home, err), nil
	}
	defer h.close()
	now, attrs, err := h.read()
	existsNow := err == nil
	if h.real != st.real || existsNow != st.existed || (existsNow && stateDigest(now) != st.before) {
		return fmt.Sprintf("%s changed while the program ran; its confined state stays in %s", st.home, st.work), nil
	}
	if existsNow && h.id != st.id {
		// Replaced by another file with the same content.
		return fmt.Sprintf("%s was replaced while the program ran; its confined state stays in %s", st.home, st.work), nil
	}
	if w := refusal(st.checkState(h, now, err)); w != "" {
		return fmt.Sprintf("%s; the program's state stays in %s", w, st.work), nil
	}
	if !st.existed || stateDigest(data) != st.before {
		// Mode and owner stay the home file's: the program set the
		// working copy's (chmod 666 would make ~/.claude.json, which
		// names the MCP servers Claude Code runs, writable to all).
		// A home file that is a link (into a dotfiles repository) is
		// written where it points, the link kept.
		if !existsNow {
			attrs = newAttrs
		}
		if err := h.write(data, attrs); err != nil {
			return "", fmt.Errorf("state sync: %w", err)
		}
		if st.shown != "" {
			// Home was what the working copy was made from (or
			// absent): the difference is the program's.
			st.changed = stateChanges(st.shown, now, data)
		}
	}
	return "", st.removeWork()
}

// removeWork removes the working copy and its base file once the state is
// home again.
func (st *stateSync) removeWork() error {
	if err := os.Remove(st.work); err != nil {
		return fmt.Errorf("state sync: %w", err)
	}
	_ = os.Remove(st.base())
	return nil
}

// join takes the working copy another launch's program runs on as it
// is. Its baseline is home as the first session made the working copy
// (the base file): what the other program wrote goes home too when this
// launch is the last one out, and an unconfined change to home since is
// not overwritten. Without a base file (made by an older omega-run, or
// removed), home as it is now.
func (st *stateSync) join(h *homeFile) error {
	data, attrs, err := st.readHome(h)
	if _, ok := err.(*unfitHomeError); ok {
		return err
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", st.home, err)
	}
	if _, err := os.Lstat(st.work); errors.Is(err, fs.ErrNotExist) && st.existed {
		// Its program removed it: start from home, as alone.
		return atomicWrite(st.work, data, attrs)
	}
	if line, err := readRegular(st.base(), true, 64); err == nil {
		if d, existed, ok := parseDigestLine(string(line)); ok {
			st.before, st.existed = d, existed
		}
	}
	return nil
}

// base is the file that holds home's digest for sessions that join.
func (st *stateSync) base() string { return st.work + ".omega-base" }

// syncMode is how a launch found the working copy's lock (lockState).
type syncMode int

const (
	syncAlone syncMode = iota
	syncShared
	syncContested
)

func (st *stateSync) unlock() {
	if st.lock != nil {
		st.lock.Close()
		st.lock = nil
	}
}

// keepLeftover moves aside a working copy that no launch runs on and that
// differs from home: the state of a run that could not copy it back (home
// changed meanwhile) or was killed. Copying home over it would lose it.
func keepLeftover(work string, home []byte) error {
	data, err := readWorkCopy(work, len(home))
	if err != nil || bytes.Equal(data, home) {
		return nil // none, the same, or not a state file: replaced
	}
	kept := freeName(work + ".omega-kept-" + time.Now().Format("20060102-150405"))
	if err := os.Rename(work, kept); err != nil {
		return err
	}
	logrus.Warnf("%s held state that did not go back to home (changed meanwhile, or a killed run): kept as %s; the program starts from home's", work, kept)
	return nil
}

// freeName is name, or name-2, name-3, … where it is taken: runs killed
// within one second each leave a state to keep, and a rename onto the
// earlier kept copy lost it (TestKilledStatesAllKept). Only a launch that
// holds the state lock alone keeps a leftover, so no other one picks the
// same name meanwhile.
func freeName(name string) string {
	try := name
	for n := 2; ; n++ {
		if _, err := os.Lstat(try); err != nil {
			return try // free, or the rename says what is wrong
		}
		try = fmt.Sprintf("%s-%d", name, n)
	}
}

// maxState bounds a working copy read back: the program wrote it.
const maxState = 64 << 20

// maxStateCeiling bounds a working copy read back whatever the home
// file's size: what goes back is the next launch's home state, and a
// bound relative to that alone lets the program grow it every session.
const maxStateCeiling = 1 << 30

// workCopyMax is the most of a working copy read back: the home file the
// launcher read in already plus maxState (the program's additions), as
// Claude Code's state grows to hundreds of MB and each of its changes
// must go home, but never past maxStateCeiling.
func workCopyMax(homeSize int) int64 {
	return min(maxStateCeiling, int64(homeSize)+maxState)
}
