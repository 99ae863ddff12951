package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/profiles"
)

// shellHistory is the environment a shell session gets for its history
// (historyEnv). It makes the history dir (the shell makes the file),
// says once, where a person reads it, where the history is kept, and
// warns when the history is lost: an rc file or --setenv sets a HISTFILE
// the sandbox does not let the shell write, or the dir cannot be made
// (the launch goes on: a history is not worth refusing the shell).
func shellHistory(p *plan) []string {
	real := realProgram(p.path)
	name, rcs := profiles.ShellHistory(real, p.argv[1:])
	if name == "" {
		fishHistory(p, real)
		return nil
	}
	env, file := historyEnvFor(p.policy, name, p.process)
	if v, ok := p.process.lookupEnv("HISTFILE"); ok && env == nil && v != "" && p.policy.WritableRootOf(v) == "" && stderrTerminal() {
		logrus.Warnf("--setenv HISTFILE=%s, which the sandbox does not let the shell write: this session's history is lost", v)
	}
	if file == "" {
		return nil
	}
	rc, line := rcSetsHistfile(p.policy, rcDir(p, real), rcs)
	if rc != "" && stderrTerminal() {
		logrus.Warnf("%s sets HISTFILE (line %d) to a file the sandbox does not let the shell write: this session's history is lost; "+
			"to keep it in %s, set HISTFILE there only when unset: : \"${HISTFILE:=~/.%s}\"", rc, line, file, name)
	}
	dir := filepath.Dir(file)
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		// Given away if found empty and root's: a launch killed
		// before it gave away the one it made.
		_ = ownLikeDataDir(dir)
		return env
	}
	if err := mkdirOwnerOnly(dir); err != nil {
		logrus.Warnf("cannot create %s (%v): this session's history is lost", dir, pathErrOf(dir, err))
		return nil
	}
	if err := ownLikeDataDir(dir); err != nil {
		logrus.Warnf("cannot give %s its data dir's owner (%v): this session's history may be lost", dir, err)
	}
	if rc == "" && stderrTerminal() {
		logrus.Warnf("a confined shell's history is kept in %s (one file per shell, read by the next confined session), "+
			"not in the host's (~/.%s): a confined program could plant a command there that you re-run", dir, name)
	}
	return env
}

// fishHistory warns, where a person reads it, that a fish session's
// history is lost: fish keeps it in its data dir, whatever HISTFILE says.
func fishHistory(p *plan, real string) {
	if profiles.ShellName(real) != "fish" || !stderrTerminal() {
		return
	}
	data := p.process.getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		data = filepath.Join(p.policy.Home, ".local", "share")
	}
	if dir := filepath.Join(data, "fish"); p.policy.WritableRootOf(filepath.Join(dir, "fish_history")) == "" {
		logrus.Warnf("fish keeps its history in %s, which the sandbox does not let it write: this session's history is lost (--allow-write %s keeps it there)", dir, dir)
	}
}

// rcDir is where the shell at real reads its rc files: zsh's ZDOTDIR,
// else home.
func rcDir(p *plan, real string) string {
	if profiles.ShellName(real) == "zsh" {
		if d := p.process.getenv("ZDOTDIR"); d != "" {
			return d
		}
	}
	return p.policy.Home
}
