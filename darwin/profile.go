package darwin

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// CredentialStores lists, relative to home, what sandbox mode hides from
// the program: the usual credential stores, then browser profiles and the
// keychains. The list is shared with the Linux masks (profiles).
var CredentialStores = profiles.CredentialStores("darwin")

// Writable roots every confined program gets besides the data dir and
// ~/.claude: /tmp and the per-user temporary dirs (TMPDIR, caches) that
// macOS hands out under /var/folders.
var fixedWritable = []string{"/private/tmp", "/private/var/folders"}

// dataDeviceRules are the devices nearly every program writes to but has
// no reason to create, remove, chmod or chown: the bit buckets, the
// random devices (Linux's sandbox has them writable too) and
// /dev/dtracehelper, where dyld registers a program's DTrace probes (as
// Apple's own profiles allow). Writing only: a program running as root
// could otherwise remove /dev/null and put a file of its own there.
var dataDeviceRules = []string{
	`(literal "/dev/null")`,
	`(literal "/dev/zero")`,
	`(literal "/dev/random")`,
	`(literal "/dev/urandom")`,
	`(literal "/dev/dtracehelper")`,
}

// terminalRules are the program's terminal (controlling tty, pty master
// and slaves) and its own descriptors through /dev/fd (/dev/stdout
// resolves there; a reopen gets no more than the fd had). Every write
// operation, as a terminal's mode and owner are set by the programs that
// run one (mesg, script, screen). Any of the user's terminals, though,
// not only the program's: Seatbelt cannot tell them apart by name.
var terminalRules = []string{
	`(literal "/dev/tty")`,
	`(literal "/dev/ptmx")`,
	`(regex #"^/dev/ttys[0-9]+$")`,
	`(regex #"^/dev/fd/[0-9]+$")`,
}

// Parameter names. Numbered ones get their index appended.
const (
	paramDataDir      = "DATA_DIR"
	paramClaudeDir    = "CLAUDE_DIR"
	paramHomeDir      = "HOME_DIR"
	paramConfigFile   = "CONFIG_FILE"
	paramWritableRoot = "WRITABLE_ROOT_"
	paramCredTarget   = "CREDENTIAL_TARGET_"
)

// Param is one -D definition: the profile says (param "Name") and
// sandbox-exec gets -DName=Value.
type Param struct {
	Name, Value string
}

// Profile is a rendered policy: the SBPL text for -p and the parameters
// it refers to, in the order they first appear.
type Profile struct {
	Text   string
	Params []Param
}

// Defines returns the -D arguments for sandbox-exec, one argv element
// each so that no value is ever split or reinterpreted.
func (pr Profile) Defines() []string {
	out := make([]string, len(pr.Params))
	for i, p := range pr.Params {
		out[i] = "-D" + p.Name + "=" + p.Value
	}
	return out
}

// Render turns p into a Seatbelt profile. resolve follows symlinks (nil:
// lexical canonicalisation only; see Canonical). Only rx and sandbox have a
// profile: rwx is not confined at all.
func Render(p profiles.Policy, resolve Resolver) (Profile, error) {
	return render(p, resolve, nil)
}

// render is Render with exists, which tells whether a directory to pin
// exists (nil: assume it does). A missing one holds nothing to move
// aside, and pinning it would keep the program from creating it
// (~/.cargo under a writable home).
func render(p profiles.Policy, resolve Resolver, exists func(string) bool) (Profile, error) {
	if p.Mode != profiles.ModeRX && p.Mode != profiles.ModeSandbox {
		return Profile{}, fmt.Errorf("darwin: mode %q has no Seatbelt profile", p.Mode)
	}
	r := &renderer{resolve: resolve, exists: exists}
	r.line("(version 1)", "(allow default)", "(deny file-write*)", "(deny file-link)")
	if err := r.writable(p); err != nil {
		return Profile{}, fmt.Errorf("darwin: %w", err)
	}
	r.block("(allow file-write-data", dataDeviceRules)
	r.block("(allow file-write*", terminalRules)
	if err := r.configFiles(p); err != nil {
		return Profile{}, fmt.Errorf("darwin: %w", err)
	}
	// Read-only paths in rx too: the CLI refuses --read-only there, but
	// the caller adds the omega-run binary when it lies in the writable
	// set, which Seatbelt, unlike Landlock, can exempt.
	if err := r.readOnly(p); err != nil {
		return Profile{}, fmt.Errorf("darwin: %w", err)
	}
	if p.Mode == profiles.ModeSandbox {
		if err := r.credentials(p); err != nil {
			return Profile{}, fmt.Errorf("darwin: %w", err)
		}
	}
	r.pinned()
	// Signals reach the program's own processes only (all that run
	// under this sandbox-exec), not the user's others: Linux's pid
	// namespace and Landlock scoping stop those in both modes. Terminal
	// signals (^C, ^Z) come from the kernel and are not checked.
	r.line("(deny signal)", "(allow signal (target same-sandbox))")
	if p.Net == profiles.NetNone {
		r.line("(deny network*)")
	}
	return Profile{Text: r.b.String(), Params: r.params}, nil
}

type renderer struct {
	b       strings.Builder
	params  []Param
	resolve Resolver
	// roots are the writable roots, canonical; pins the directories
	// denied writes of their own (see pin).
	roots, pins []string
	exists      func(string) bool
}

func (r *renderer) line(lines ...string) {
	for _, l := range lines {
		r.b.WriteString(l)
		r.b.WriteByte('\n')
	}
}

func (r *renderer) block(head string, rules []string) {
	r.line(head)
	for _, rule := range rules {
		r.line("  " + rule)
	}
	r.line(")")
}

// param records a -D definition and returns the SBPL that reads it.
func (r *renderer) param(name, value string) string {
	r.params = append(r.params, Param{Name: name, Value: value})
	return `(param "` + name + `")`
}

// root canonicalises a writable root and refuses one that became "/",
// which profiles.Validate cannot see when a symlink leads there.
func (r *renderer) root(what, p string) (string, error) {
	c, err := Canonical(p, r.resolve)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if c == "/" {
		return "", fmt.Errorf("%s %s resolves to / (it would make everything writable)", what, p)
	}
	return c, nil
}

// writable renders the first allow block: the four fixed roots in the
// design's order, then each --allow-write not already listed.
//
// Hard links too (file-link, which file-write* does not cover): Seatbelt
// judges a write by the name it is made through, so a link in a writable
// root to ~/.zshrc would let the program rewrite ~/.zshrc there, and one
// in /tmp to a key would let it read the key. The new name needs
// file-write-create; file-link is taken here to be judged by the file
// linked, as its name says and as other projects' profiles use it (not
// documented, not checked on a Mac). Were it judged by the new name, this
// rule would grant no more than file-write-create does, and no rule could
// refuse such links.
func (r *renderer) writable(p profiles.Policy) error {
	data, err := r.root("data dir", p.DataDir)
	if err != nil {
		return err
	}
	claude, err := r.root("~/.claude", path.Join(p.Home, profiles.ClaudeDirName))
	if err != nil {
		return err
	}
	rules := []string{"(subpath " + r.param(paramDataDir, data) + ")"}
	for _, f := range fixedWritable {
		rules = append(rules, "(subpath "+literal(f)+")")
	}
	rules = append(rules, "(subpath "+r.param(paramClaudeDir, claude)+")")
	seen := append([]string{data, claude}, fixedWritable...)
	n := 0
	for _, w := range p.AllowWrite {
		c, err := r.root("--allow-write", w)
		if err != nil {
			return err
		}
		if slices.Contains(seen, c) {
			continue
		}
		seen = append(seen, c)
		name := fmt.Sprintf("%s%d", paramWritableRoot, n)
		n++
		rules = append(rules, "(subpath "+r.param(name, c)+")")
	}
	r.roots = seen
	r.block("(allow file-write* file-link", rules)
	return nil
}

// configFiles denies writes to the config files that decide how later
// launches run (profiles.Policy.ConfigFiles: the data dir's, and a
// --config in a writable root), in rx too: a later rule wins in Seatbelt,
// so this carves them out of the writable data dir. Creating, replacing
// and removing them are writes to their paths.
//
// Both the name and, when it is a symlink, what it points to: Seatbelt
// checks an unlink or rename on the link itself. And a hard link to them,
// which the program would write through.
func (r *renderer) configFiles(p profiles.Policy) error {
	var paths []string
	for _, c := range p.ConfigFiles() {
		dir, err := Canonical(path.Dir(c), r.resolve)
		if err != nil {
			return fmt.Errorf("config file: %w", err)
		}
		full, err := Canonical(c, r.resolve)
		if err != nil {
			return fmt.Errorf("config file: %w", err)
		}
		for _, q := range []string{path.Join(dir, path.Base(c)), full} {
			if !slices.Contains(paths, q) {
				paths = append(paths, q)
			}
		}
	}
	rules := make([]string, len(paths))
	for i, q := range paths {
		rules[i] = "(literal " + r.param(fmt.Sprintf("%s%d", paramConfigFile, i), q) + ")"
		r.pin(q)
	}
	r.block("(deny file-write* file-link", rules)
	return nil
}

// credentials denies reads of every credential store below home. Writes
// are denied too: the Linux side masks the stores, and without it
// --allow-write ~ would let the program plant ~/.ssh/authorized_keys or
// an ~/.aws/config credential_process that the user later runs. And hard
// links and clones (clonefile, cp -c) of what they hold: Seatbelt would
// judge the reads of the new name, in /tmp, which it allows.
func (r *renderer) credentials(p profiles.Policy) error {
	h, err := Canonical(p.Home, r.resolve)
	if err != nil {
		return fmt.Errorf("home: %w", err)
	}
	// Without the trailing slash, home "/" gives "/.ssh", not "//.ssh".
	ref := r.param(paramHomeDir, strings.TrimSuffix(h, "/"))
	var rules []string
	for _, s := range CredentialStores {
		if !safeRelative(s) {
			return fmt.Errorf("credential store %q is not a plain relative path", s)
		}
		rules = append(rules, "(subpath (string-append "+ref+" "+literal("/"+s)+"))")
		r.pin(path.Join(h, s))
	}
	for i, t := range r.linkedStores(h) {
		rules = append(rules, "(subpath "+r.param(fmt.Sprintf("%s%d", paramCredTarget, i), t)+")")
		r.pin(t)
	}
	hidden, err := r.hidden(p)
	if err != nil {
		return err
	}
	rules = append(rules, hidden...)
	r.block("(deny file-read* file-write* file-link file-clone", rules)
	return nil
}

// linkedStores returns where credential stores that are symlinks point,
// because Seatbelt checks the target and a deny on the link alone would
// miss it. Best effort: a store that cannot be resolved keeps the deny on
// its own path, which is all that exists to protect.
func (r *renderer) linkedStores(home string) []string {
	if r.resolve == nil {
		return nil
	}
	var out []string
	for _, s := range CredentialStores {
		lexical := path.Join(home, s)
		t, err := Canonical(lexical, r.resolve)
		if err == nil && t != lexical && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// literal quotes one of this package's own constant strings. It refuses
// anything outside a plain character set rather than escape it, so that
// no escaping rule has to be right.
func literal(s string) string {
	if !plainChars(s) {
		panic(fmt.Sprintf("darwin: constant %q needs SBPL escaping", s))
	}
	return `"` + s + `"`
}

// safeRelative reports whether a credential store name can be spliced
// into the profile: plain characters, relative, clean, no "..".
func safeRelative(s string) bool {
	return s != "" && plainChars(s) && !path.IsAbs(s) && path.Clean(s) == s &&
		!slices.Contains(strings.Split(s, "/"), "..")
}

func plainChars(s string) bool {
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.ContainsRune(" ._+-/", c)
		if !ok {
			return false
		}
	}
	return true
}
