package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// checkUnexpanded refuses a path option with a ~ or $VAR no shell
// expanded (UnexpandedError).
func (o Options) checkUnexpanded(home string) error {
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
			if err := UnexpandedError(p.flag, v, home); err != nil {
				return err
			}
		}
	}
	return nil
}

// UnexpandedError refuses value, the path given for --flag, if it holds
// a ~ or $VAR that no shell expanded, naming the path meant; nil for any
// other value. The CLI calls it for --config, which it reads before any
// Options exist.
func UnexpandedError(flag, value, home string) error {
	if err := tildeError(flag, value, home); err != nil {
		return err
	}
	return varError(flag, value, home)
}

// tildeError refuses a value that begins with ~. Only a shell expands ~,
// and only at the start of an unquoted word, so --data-dir=~/dd, a
// quoted "~/dd", a unit's Environment= and the config file's
// allow_write = ["~/proj"] bring it here as a name: taken from the
// working directory it named a directory called ~ there, made unsaid for
// the data dir, left unhidden for --hide, offered a mkdir -p for
// --allow-write. ./~ still names such a directory.
func tildeError(flag, value, home string) error {
	if value != "~" && !strings.HasPrefix(value, "~/") {
		return nil
	}
	return fmt.Errorf("--%s %s: no shell expanded this ~ (one does only at the start of an unquoted word: not after =, in quotes, in a variable or the config file): write %s (%s for a directory named ~)",
		flag, profiles.ShellWord(value), profiles.ShellWord(filepath.Join(home, value[1:])), profiles.ShellWord("./"+value))
}

// varError refuses a value with a $NAME or ${NAME…} in it, which
// reaches here unexpanded from the config file, a unit's Environment=
// (systemd expands no variables there), an exec-form argument list or a
// quoted word: taken as written, allow_write = ["$HOME/proj"] named a
// directory called $HOME in the working directory. As for ~, nothing is
// expanded here (a variable unset, or set otherwise in a unit, would
// quietly name another path): the message names the path meant. A value
// that begins with ./ or /./ is taken as written, so a name with a $ in
// it stays expressible, relative or absolute (/mnt/c/$Recycle.Bin).
func varError(flag, value, home string) error {
	if strings.HasPrefix(value, "./") || strings.HasPrefix(value, "/./") {
		return nil
	}
	meant, names, unset, simple := expandVars(value, home)
	if len(names) == 0 {
		return nil
	}
	prefix := fmt.Sprintf("--%s %s: nothing expanded $%s (a shell does; the config file, a unit's Environment= and a program's argument list do not)",
		flag, profiles.ShellWord(value), names[0])
	literal := profiles.ShellWord("./"+value) + " takes the $ as written"
	if filepath.IsAbs(value) {
		literal = profiles.ShellWord("/."+value) + " takes the $ as written"
	}
	switch {
	case !simple:
		return fmt.Errorf("%s: write the path it stands for (%s)", prefix, literal)
	case unset != "":
		return fmt.Errorf("%s: $%s is not set here; write the path it stands for (%s)", prefix, unset, literal)
	}
	return fmt.Errorf("%s: write %s (%s)", prefix, profiles.ShellWord(meant), literal)
}

// expandVars expands value's $NAME and ${NAME} as a shell here would
// (HOME is home, the policy's), naming the variables; unset is the first
// one not set, and simple is false where a ${…} does more than name one
// (${X:-default}), whose expansion is not worked out. A $ before no name
// ("$", "$1") stays as it is.
func expandVars(value, home string) (meant string, names []string, unset string, simple bool) {
	var out strings.Builder
	simple = true
	for i := 0; i < len(value); i++ {
		rest := value[i+1:]
		braced := strings.HasPrefix(rest, "{")
		if braced {
			rest = rest[1:]
		}
		n := 0
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		if value[i] != '$' || n == 0 {
			out.WriteByte(value[i])
			continue
		}
		name := rest[:n]
		names = append(names, name)
		v, set := os.LookupEnv(name)
		if name == "HOME" && home != "" {
			v, set = home, true
		}
		if !set && unset == "" {
			unset = name
		}
		out.WriteString(v)
		i += n
		if braced {
			if n == len(rest) || rest[n] != '}' {
				simple = false
			}
			i += 2 // the braces
		}
	}
	return out.String(), names, unset, simple
}
