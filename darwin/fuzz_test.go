package darwin

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// FuzzRenderPath puts any string where a path goes (data dir,
// --allow-write, home, --config) and checks that it cannot reach the SBPL
// text: the profile reads as balanced S-expressions whose every string
// literal is one of this package's constants, every (param "X") is
// defined, and the path arrives whole in a -D value.
func FuzzRenderPath(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.path, uint8(0))
	}
	f.Add("/Users/alice/x\\", uint8(1))
	f.Add("/Users/alice/.omega/config.toml\") (allow default", uint8(3))
	f.Add("x\") (allow file-write* (subpath \"/", uint8(9))
	f.Fuzz(func(t *testing.T, hostile string, where uint8) {
		p := policyWith(slot(where%3), hostile)
		if where%4 == 3 {
			p.Config = hostile // a --config: kept read-only when in a writable root
			p.AllowWrite = append(p.AllowWrite, hostile)
		}
		if p.Mode = profiles.ModeSandbox; where&4 != 0 {
			p.Mode = profiles.ModeRX
		}
		p.Writable = append([]string{p.DataDir, "/tmp", p.ClaudeDir()}, p.AllowWrite...)
		var resolve Resolver
		if where&8 != 0 {
			// Symlinks a confined program left: every path leads below
			// a directory named by the fuzzer.
			resolve = func(q string) (string, error) { return "/Users/alice/links/" + hostile + q, nil }
		}
		pr, err := Render(p, resolve)
		if err != nil {
			return
		}
		literals, err := sbplLiterals(pr.Text)
		if err != nil {
			t.Fatalf("%v in\n%s", err, pr.Text)
		}
		allowed := constantLiterals()
		for _, p := range pr.Params {
			allowed = append(allowed, p.Name)
		}
		for _, l := range literals {
			if !slices.Contains(allowed, l) {
				t.Fatalf("literal %q is no constant nor param name (hostile %q)\n%s", l, hostile, pr.Text)
			}
		}
		canon, err := Canonical(hostile, resolve)
		found := err != nil || canon == "/" // "/" is a home, not a writable root
		for i, d := range pr.Defines() {
			name, value, _ := strings.Cut(strings.TrimPrefix(d, "-D"), "=")
			if name != pr.Params[i].Name || value != pr.Params[i].Value || strings.ContainsRune(name, 0) {
				t.Fatalf("-D %q reads as %q = %q, want %+v", d, name, value, pr.Params[i])
			}
			// rx renders no home, only ~/.claude below it.
			found = found || value == canon || value == strings.TrimSuffix(canon, "/") || value == path.Join(canon, ".claude")
		}
		if !found {
			t.Fatalf("no -D value holds %q (%q): %v", hostile, canon, pr.Params)
		}
	})
}

// constantLiterals are the strings the renderer itself writes.
func constantLiterals() []string {
	out := append([]string{}, fixedWritable...)
	for _, s := range CredentialStores {
		out = append(out, "/"+s)
	}
	for _, r := range append(slices.Clone(dataDeviceRules), terminalRules...) {
		l, err := sbplLiterals(r)
		if err != nil {
			panic(err)
		}
		out = append(out, l...)
	}
	return out
}

// sbplLiterals reads SBPL (Scheme) text as the sandbox does
// (parseSBPL) and returns its string literals ("…" and #"…" regexes,
// escapes undone). It fails on unbalanced parentheses and unterminated
// strings.
func sbplLiterals(text string) ([]string, error) {
	top, err := parseSBPL(text)
	if err != nil {
		return nil, err
	}
	var out []string
	var walk func([]sexp)
	walk = func(xs []sexp) {
		for _, x := range xs {
			switch {
			case x.isList:
				walk(x.list)
			case x.str || x.regex:
				out = append(out, x.atom)
			}
		}
	}
	walk(top)
	return out, nil
}

// FuzzShellJoin: a POSIX shell splits ShellJoin's line back into exactly
// the words given (explain prints the sandbox-exec command this way).
func FuzzShellJoin(f *testing.F) {
	for _, s := range []string{"", "a", "a b", "it's", "=cmd", "$HOME\x00`x`", "'\x00\"\\", "\n", "\x1b]0;t\a\x00\xf5\x00", "~user\x00#c", "%1\x00a=b", "a=b\x00x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := strings.Split(s, "\x00") // no argument holds a NUL
		line := ShellJoin(argv)
		if got, err := shellSplit(line); err != nil || !slices.Equal(got, argv) {
			t.Fatalf("%q joins as %s, which splits to %q (%v)", argv, line, got, err)
		}
	})
}

// shellSplit splits a line as a POSIX shell does for the quoting
// ShellQuote uses: bare words, single quotes, backslashes outside quotes,
// $'…' with \\, \' and \xHH.
// Characters that would expand or end a command are errors, and so is
// a first word that is an assignment (a=b cmd runs cmd).
func shellSplit(line string) ([]string, error) {
	var out []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ':
			if inWord {
				out = append(out, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote")
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '$' && i+1 < len(line) && line[i+1] == '\'':
			n, err := ansiC(line[i+2:], &w)
			if err != nil {
				return nil, err
			}
			i += 1 + n
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		case strings.IndexByte("\t\n|&;<>()$`\\\"*?[#~=", c) >= 0 && !(inWord && strings.IndexByte("#~=", c) >= 0):
			return nil, fmt.Errorf("unquoted %q at %d", c, i)
		case c == '=' && len(out) == 0 && !strings.ContainsAny(line[:i], "'\\"):
			return nil, fmt.Errorf("the first word is an assignment")
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, w.String())
	}
	return out, nil
}

// ansiC reads the inside of $'…' from s into w as ShellQuote writes it
// (\\, \' and \xHH escapes) and returns how much of s it took, the
// closing quote included.
func ansiC(s string, w *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			return i + 1, nil
		case c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
			w.WriteByte(s[i+1])
			i++
		case c == '\\' && i+3 < len(s) && s[i+1] == 'x':
			b, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				return 0, err
			}
			w.WriteByte(byte(b))
			i += 3
		case c == '\\':
			return 0, fmt.Errorf("escape %q in $'…'", s[i:])
		default:
			w.WriteByte(c)
		}
	}
	return 0, fmt.Errorf("unterminated $'")
}
