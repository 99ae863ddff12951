package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, doc, err string
	}{
		{"empty", "", ""},
		{"full", `[sandbox]
mode = "rx"
allow_write = ["/a", "/b"]
read_only = ["/a/r"]
hide = ["/h"]
allow_socket = ["/run/s"]
net = "none"
seccomp = "strict"
fail_closed = true
`, ""},
		{"gateway tables are left alone", "[gateway]\nport = 1\n[sandbox]\nmode = \"rx\"\nnet = \"none\"\nfail_closed = true\n", ""},
		{"gateway table after ours", "[sandbox]\nmode = \"rx\"\nnet = \"none\"\nfail_closed = true\n[gateway]\nport = 1\n[gateway.tls]\ncert = \"c\"\n", ""},
		{"unknown key next to a gateway table", "[gateway]\nport = 1\n[sandbox]\nmode = \"rx\"\nnets = \"none\"\n", "c.toml:5:1: unknown key nets in [sandbox]"},
		{"unknown key", "[sandbox]\nmode = \"rx\"\nallow_writes = [\"/a\"]\n", "c.toml:3:1: unknown key allow_writes in [sandbox]"},
		{"wrong type", "[sandbox]\nfail_closed = \"yes\"\n", "c.toml:2:"},
		{"list expected", "[sandbox]\nallow_write = \"/a\"\n", "c.toml:2:"},
		{"syntax", "[sandbox\nmode = 1\n", "c.toml:1:"},
		{"bad mode", "[sandbox]\n\nmode = \"bogus\"\n", `c.toml:3:8: sandbox.mode: unknown mode "bogus"`},
		{"bad net", "[sandbox]\nnet = \"wifi\"\n", `c.toml:2:7: sandbox.net: unknown network "wifi"`},
		// Decoded by UnmarshalText, which would name neither key nor type.
		{"mode a number", "[sandbox]\nmode = 3\n", `c.toml: sandbox.mode: want a string in double quotes ("sandbox", "rx" or "rwx"), not 3`},
		{"net a boolean", "[sandbox]\nnet = false\n", `c.toml: sandbox.net: want a string in double quotes ("host" or "none"), not false`},
		{"sandbox not a table", "sandbox = 3\n", "c.toml:1:11: sandbox: want a table: a [sandbox] line, then key = value lines"},
		// The decoder ignores case; the gateway and a reader of the file do not.
		{"table in capitals", "[SANDBOX]\nmode = \"rwx\"\n", "c.toml: table SANDBOX: keys are case-sensitive"},
		{"key respelt", "[sandbox]\nmode = \"rx\"\nMode = \"rwx\"\n", "c.toml: unknown key Mode in [sandbox] (keys are case-sensitive"},
		{"fail_closed undone", "[sandbox]\nfail_closed = true\nFail_Closed = false\n", "unknown key Fail_Closed in [sandbox]"},
		// A bare word got the parser's words: `expected keyword "nan"` for
		// net = none, "unexpected character U+0072 'r'" for mode = rx.
		{"bare none", "[sandbox]\nnet = none\n", `c.toml:2:7: none is not quoted: a string goes in double quotes ("none")`},
		{"bare word", "[sandbox]\nmode = rx # here\n", `c.toml:2:8: rx is not quoted: a string goes in double quotes ("rx")`},
		{"bare path in a list", "[sandbox]\nallow_write = [\"/a\", /srv/b]\n", `c.toml:2:22: /srv/b is not quoted: a string goes in double quotes ("/srv/b")`},
		{"bare yes", "[sandbox]\nfail_closed = yes\n", `c.toml:2:15: yes: fail_closed takes true or false`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(c.doc), "c.toml")
			if c.err == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if c.doc != "" && !decodedRX(f.Sandbox) {
					t.Errorf("settings lost: decoded %+v", f.Sandbox)
				}
				if c.name == "full" && len(f.Sandbox.AllowWrite) != 2 {
					t.Errorf("decoded %+v", f.Sandbox)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("err = %v, want it to contain %q", err, c.err)
			}
		})
	}
}

// decodedRX: the cases with a [sandbox] table all set mode = "rx".
func decodedRX(s Sandbox) bool {
	return s.Mode != nil && s.Mode.Value == "rx" && (s.Net == nil || s.Net.Value == "none") && (s.FailClosed == nil || *s.FailClosed)
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if f, err := Load(filepath.Join(dir, "none.toml"), true); err != nil || f.Path != "" {
		t.Errorf("missing optional file: %+v, %v", f, err)
	}
	if _, err := Load(filepath.Join(dir, "none.toml"), false); err == nil {
		t.Error("missing explicit --config must be an error")
	}
	p := filepath.Join(dir, "c.toml")
	// The data dir is a file: no config there (the launch says what is wrong).
	os.WriteFile(p, nil, 0o644)
	if f, err := Load(filepath.Join(p, "config.toml"), true); err != nil || f.Path != "" {
		t.Errorf("optional file below a file: %+v, %v", f, err)
	}
	os.WriteFile(p, []byte("[sandbox]\nnet = \"none\"\n"), 0o644)
	if f, err := Load(p, false); err != nil || f.Sandbox.Net.Value != "none" || f.Path != p {
		t.Errorf("Load: %+v, %v", f, err)
	}
}

func TestStrayKeys(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // keys warned about
	}{
		{"none", "[sandbox]\nmode = \"rx\"\n", nil},
		{"above the table", "fail_closed = true\nmode = \"rx\"\n[sandbox]\nnet = \"none\"\n", []string{"fail_closed", "mode"}},
		{"no table at all", "allow_write = [\"/a\"]\n", []string{"allow_write"}},
		{"the gateway's own top-level keys", "port = 1\nname = \"x\"\n[sandbox]\nmode = \"rx\"\n", nil},
		{"in another table", "[gateway]\nmode = \"fast\"\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(c.doc), "c.toml")
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Warnings) != len(c.want) {
				t.Fatalf("warnings %q, want one for each of %q", f.Warnings, c.want)
			}
			for i, k := range c.want {
				if !strings.Contains(f.Warnings[i], "c.toml: "+k+" is set outside [sandbox]") {
					t.Errorf("warning %q, want one about %s", f.Warnings[i], k)
				}
			}
		})
	}
}
