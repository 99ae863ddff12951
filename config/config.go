// Package config reads omega-run's settings from the Omega config file,
// <data-dir>/config.toml, whose [sandbox] table the Omega gateway shares:
//
//	[sandbox]
//	mode = "rx"                 # sandbox | rx | rwx
//	allow_write = ["/srv/data"]
//	read_only = []
//	hide = ["/home/me/.config/secret"]  # no ~ or $HOME: nothing expands them
//	allow_socket = []
//	net = "none"                # host | none
//	seccomp = "strict"          # default | strict | none | FILE
//	fail_closed = true
//	pty = true                  # sandbox mode: the program's own terminal
//
// Unknown keys and values of the wrong type are errors that name the
// file, line and key. Values are checked again, with the same messages
// as flags, when the policy is built.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/internal/safefile"
	"github.com/omega-run/omega-run/profiles"
	"github.com/pelletier/go-toml/v2"
)

// maxConfig bounds a config file's size (a few lines).
const maxConfig = 1 << 20

// FileName is the config file inside the data dir.
const FileName = profiles.ConfigFileName

// Sandbox is the [sandbox] table. Pointers tell "not set" from zero.
type Sandbox struct {
	Mode        *Mode    `toml:"mode"`
	AllowWrite  []string `toml:"allow_write"`
	ReadOnly    []string `toml:"read_only"`
	Hide        []string `toml:"hide"`
	AllowSocket []string `toml:"allow_socket"`
	Net         *Network `toml:"net"`
	Seccomp     *string  `toml:"seccomp"`
	FailClosed  *bool    `toml:"fail_closed"`
	PTY         *bool    `toml:"pty"`
}

// Mode is a mode checked while decoding, so a bad one gets a line number.
// (A struct: the decoder would assign a string kind without asking.)
type Mode struct{ Value profiles.Mode }

// UnmarshalText checks the mode.
func (m *Mode) UnmarshalText(b []byte) (err error) {
	m.Value, err = profiles.ParseMode(string(b))
	return err
}

// Network is --net, checked while decoding.
type Network struct{ Value profiles.Network }

// UnmarshalText checks the network setting.
func (n *Network) UnmarshalText(b []byte) (err error) {
	n.Value, err = profiles.ParseNetwork(string(b))
	return err
}

// File is a whole config file. Other tables belong to the gateway and
// are left alone.
type File struct {
	Sandbox Sandbox `toml:"sandbox"`
	// Path is where it was read from ("" when there was no file).
	Path string `toml:"-"`
	// Warnings are keys of [sandbox] found outside it (strayKeys).
	Warnings []string `toml:"-"`
}

// Load reads path. A missing file is no error when optional is set (the
// default location); an explicit --config must exist.
func Load(path string, optional bool) (File, error) {
	// A FIFO or a link to a device that a confined program left in its
	// place must not hold or fill the launch (safefile); a named
	// --config may be a pipe (/dev/stdin) or /dev/null. The data dir's
	// owner, whoever it is, is judged by the launch (a --user's).
	kind := safefile.Named
	if optional {
		kind = safefile.DataDir
	}
	data, fi, err := safefile.ReadInfo(path, maxConfig, kind)
	// ENOTDIR: the data dir is a file; the launch says so (it cannot
	// create the data dir), and rwx does not need one.
	if (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && optional {
		return File{}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("config: %w", err)
	}
	// Root takes the data dir's config file only from root: another
	// user's (a data dir in their home, or one they own) could ask for
	// rwx and run root's program unconfined. Anyone else takes it from
	// themselves or root: another user's (planted in a data dir below a
	// sticky /tmp) could do the same to theirs. A named one is the
	// caller's.
	if uid, ok := fileUID(fi); ok && optional && uid != 0 && int(uid) != os.Geteuid() {
		if os.Geteuid() == 0 {
			return File{}, fmt.Errorf("config: %s belongs to another user (uid %d), who could widen a launch as root with it (mode = \"rwx\"): make it root's (chown root), or name a config file of root's with --config or OMEGA_RUN_CONFIG", path, uid)
		}
		return File{}, fmt.Errorf("config: %s belongs to another user (uid %d), who could widen your launches with it (mode = \"rwx\"): remove it or make it yours, or name a config file of yours with --config or OMEGA_RUN_CONFIG", path, uid)
	}
	f, err := Parse(data, path)
	f.Path = path
	return f, err
}

// Parse decodes a config file's content; name is used in errors.
func Parse(data []byte, name string) (File, error) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return File{}, positioned(name, data, err)
	}
	if err := textKeys(name, raw); err != nil {
		return File{}, err
	}
	// Only [sandbox] is ours: decode it strictly, the rest not at all.
	var f File
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var sm *toml.StrictMissingError
		if !errors.As(err, &sm) {
			return File{}, positioned(name, data, err)
		}
		// The decoder reports unknown keys after decoding everything, so
		// f holds the settings when every unknown key is another table's.
		if err := firstOwnUnknown(name, sm); err != nil {
			return File{}, err
		}
	}
	if err := exactKeys(name, raw); err != nil {
		return File{}, err
	}
	f.Warnings = strayKeys(name, raw)
	return f, nil
}

// strayKeys names top-level keys that are [sandbox]'s, which omega-run
// does not read there: "fail_closed = true" above the [sandbox] line
// would otherwise be dropped without a word. Top-level keys may be the
// gateway's, so they are not errors.
func strayKeys(name string, raw map[string]any) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if slices.Contains(knownKeys, k) {
			out = append(out, fmt.Sprintf("config: %s: %s is set outside [sandbox], where omega-run does not read it; "+
				"to apply it, move it below the [sandbox] line", name, k))
		}
	}
	return out
}

// knownKeys are the keys of [sandbox], as the gateway spells them too.
var knownKeys = []string{"mode", "allow_write", "read_only", "hide", "allow_socket", "net", "seccomp", "fail_closed", "pty"}

// textKeys refuses a mode or net that is not a TOML string: the decoder
// hands "mode = 3" to UnmarshalText as "3", whose error then names
// neither the key nor what to write.
func textKeys(name string, raw map[string]any) error {
	table, _ := raw["sandbox"].(map[string]any)
	for _, k := range []struct{ key, values string }{{"mode", `"sandbox", "rx" or "rwx"`}, {"net", `"host" or "none"`}} {
		if v, ok := table[k.key]; ok {
			if _, isString := v.(string); !isString {
				return fmt.Errorf("config: %s: sandbox.%s: want a string in double quotes (%s), not %v", name, k.key, k.values, v)
			}
		}
	}
	return nil
}

// exactKeys refuses keys that the decoder matched without regard to case:
// it reads [SANDBOX] as [sandbox] and Mode as mode, so "mode = "rx"" then
// "Mode = "rwx"" would run rwx while the gateway, and anyone reading the
// file, sees rx.
func exactKeys(name string, raw map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if k != "sandbox" && strings.EqualFold(k, "sandbox") {
			return fmt.Errorf("config: %s: table %s: keys are case-sensitive, want sandbox", name, k)
		}
	}
	table, _ := raw["sandbox"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(table)) {
		if !slices.Contains(knownKeys, k) {
			return fmt.Errorf("config: %s: unknown key %s in [sandbox] (keys are case-sensitive; known: %s)", name, k, strings.Join(knownKeys, ", "))
		}
	}
	return nil
}

// firstOwnUnknown reports the first unknown key inside [sandbox]; keys of
// other tables are the gateway's business.
func firstOwnUnknown(name string, sm *toml.StrictMissingError) error {
	for _, e := range sm.Errors {
		key := e.Key()
		if len(key) > 1 && key[0] == "sandbox" {
			row, col := e.Position()
			return fmt.Errorf("config: %s:%d:%d: unknown key %s in [sandbox] (known: %s)", name, row, col, strings.Join(key[1:], "."), strings.Join(knownKeys, ", "))
		}
	}
	return nil
}

func positioned(name string, data []byte, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		if bare := bareWord(data, row, col, de.Error()); bare != "" {
			return fmt.Errorf("config: %s:%d:%d: %s", name, row, col, bare)
		}
		key := strings.Join(de.Key(), ".")
		if key != "" {
			return fmt.Errorf("config: %s:%d:%d: %s: %s", name, row, col, key, strings.TrimPrefix(want(de.Error()), "toml: "))
		}
		return fmt.Errorf("config: %s:%d:%d: %s", name, row, col, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return fmt.Errorf("config: %s: %w", name, err)
}

// want turns the decoder's Go type names into what to write in TOML.
func want(msg string) string {
	for goType, tomlType := range map[string]string{
		"of type bool": "want true or false", "of type []string": `want a list of strings, like ["/a", "/b"]`,
		"of type string":         "want a string in double quotes",
		"of type config.Sandbox": "want a table: a [sandbox] line, then key = value lines",
	} {
		if strings.Contains(msg, goType) {
			return tomlType
		}
	}
	return msg
}

// bareWord says what to write for an unquoted word where a value goes,
// for which the parser said `expected keyword "nan"` (net = none) or
// "unexpected character U+0072 'r' at start of value" (mode = rx); ""
// where msg or the text at row and col is something else.
func bareWord(data []byte, row, col int, msg string) string {
	if !strings.Contains(msg, "at start of value") && !strings.Contains(msg, "expected keyword") {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if row < 1 || row > len(lines) || col < 1 || col > len(lines[row-1]) {
		return ""
	}
	line := lines[row-1]
	word := line[col-1:]
	if end := strings.IndexAny(word, " \t\r,]#"); end >= 0 {
		word = word[:end]
	}
	if word == "" || strings.ContainsAny(word[:1], `"'[{`) {
		return ""
	}
	key, _, _ := strings.Cut(line, "=")
	if key = strings.TrimSpace(key); key == "fail_closed" || key == "pty" {
		return word + ": " + key + " takes true or false"
	}
	return fmt.Sprintf("%s is not quoted: a string goes in double quotes (%q)", word, word)
}
