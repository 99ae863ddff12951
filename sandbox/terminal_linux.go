package sandbox

import (
	"os"
	"slices"
	"sync"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/profiles"
)

// stderrTerminal tells whether omega-run's stderr is a terminal: a
// person is watching, not a program collecting the output.
func stderrTerminal() bool {
	_, err := unix.IoctlGetTermios(2, unix.TCGETS)
	return err == nil
}

// shellSession tells a shell a person types into (its stdin a terminal,
// no -c, no script) from an agent's `bash -c` or a piped script, which
// get no state sync: the sync costs a copy in and a comparison after.
func shellSession(path string, args []string) bool {
	if !profiles.ReadsCommandsFromStdin(path, args) {
		return false
	}
	_, err := unix.IoctlGetTermios(0, unix.TCGETS)
	return err == nil
}

// resetBeforeNextLine has omega-run's next log line, the first after the
// run, start with termsafe.TextReset where stderr is a terminal and the lines are
// text: the program wrote to the same terminal just before, and could
// have left it so that the warnings about what it did (files it made
// that run later) are unreadable. The returned func takes the hook out
// again (Run may be called again, by a library).
func resetBeforeNextLine() func() {
	if _, isJSON := logrus.StandardLogger().Formatter.(*logrus.JSONFormatter); isJSON || !stderrTerminal() {
		return func() {}
	}
	logger := logrus.StandardLogger()
	saved := make(logrus.LevelHooks)
	for l, hs := range logger.Hooks {
		saved[l] = slices.Clone(hs)
	}
	logger.AddHook(&resetHook{})
	return func() { logger.ReplaceHooks(saved) }
}

// resetHook writes termsafe.TextReset once, before the first line it sees.
type resetHook struct{ once sync.Once }

func (*resetHook) Levels() []logrus.Level { return logrus.AllLevels }

func (h *resetHook) Fire(*logrus.Entry) error {
	h.once.Do(func() { os.Stderr.WriteString(termsafe.TextReset) })
	return nil
}
