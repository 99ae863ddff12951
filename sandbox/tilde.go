package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// checkTilde refuses a path option that begins with ~. Only a shell
// expands ~, and only at the start of an unquoted word, so
// --data-dir=~/dd, a quoted "~/dd", a unit's Environment= and the config
// file's allow_write = ["~/proj"] bring it here as a name: taken from the
// working directory it named a directory called ~ there, made unsaid for
// the data dir, left unhidden for --hide, offered a mkdir -p for
// --allow-write. ./~ still names such a directory.
func (o Options) checkTilde(home string) error {
	paths := []struct {
		flag   string
		values []string
	}{
		{"data-dir", []string{o.DataDir}}, {"workdir", []string{o.Workdir}}, {"config", []string{o.Config}},
		{"allow-write", o.AllowWrite}, {"hide", o.Hide}, {"read-only", o.ReadOnly},
		{"allow-socket", o.AllowSocket}, {"seccomp", []string{o.Seccomp}},
	}
	for _, p := range paths {
		for _, v := range p.values {
			if err := TildeError(p.flag, v, home); err != nil {
				return err
			}
		}
	}
	return nil
}

// TildeError refuses value, the path given for --flag, if it begins
// with a ~ no shell expanded, naming the path under home it meant; nil
// for any other value. The CLI calls it for --config, which it reads
// before any Options exist.
func TildeError(flag, value, home string) error {
	if value != "~" && !strings.HasPrefix(value, "~/") {
		return nil
	}
	return fmt.Errorf("--%s %s: no shell expanded this ~ (one does only at the start of an unquoted word: not after =, in quotes, in a variable or the config file): write %s (%s for a directory named ~)",
		flag, profiles.ShellWord(value), profiles.ShellWord(filepath.Join(home, value[1:])), profiles.ShellWord("./"+value))
}
