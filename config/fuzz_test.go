package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// FuzzParse: Parse never panics; what it accepts is exactly what a plain
// TOML reader finds under the exact keys of [sandbox] (the gateway reads
// the same table); and rendering the settings back gives a file that
// parses to the same settings.
func FuzzParse(f *testing.F) {
	for _, doc := range []string{
		"", "[sandbox]\nmode = \"rx\"\nallow_write = [\"/a\", \"/b\"]\nread_only = [\"/a/r\"]\nhide = [\"/h\"]\n" +
			"allow_socket = [\"/run/s\"]\nnet = \"none\"\nseccomp = \"strict\"\nfail_closed = true\n",
		"[gateway]\nport = 1\n[sandbox]\nmode = \"rx\"\n[gateway.tls]\ncert = \"c\"\n",
		"sandbox.mode = \"sandbox\"\nsandbox.net = \"host\"\n", "sandbox = { mode = \"rwx\", allow_write = [] }\n",
		"[sandbox]\nnets = \"none\"\n", "[sandbox]\nfail_closed = \"yes\"\n", "[sandbox\nmode = 1\n",
		"sandbox = 3\n", "[[sandbox]]\nmode = \"rx\"\n", "[sandbox.x]\ny = 1\n", "[sandbox]\nseccomp = '''a\nb'''\n",
		"[SANDBOX]\nmode = \"rwx\"\n", "[sandbox]\nmode = \"rx\"\nMode = \"rwx\"\n",
		"[sandbox]\nfail_closed = true\nFail_Closed = false\n", "[sandbox]\nhide = [\"\\u0000\"]\n",
	} {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got, err := Parse([]byte(doc), "c.toml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config: c.toml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		var raw map[string]any
		if err := toml.Unmarshal([]byte(doc), &raw); err != nil {
			t.Fatalf("Parse accepted what toml.Unmarshal refuses: %v", err)
		}
		table, _ := raw["sandbox"].(map[string]any)
		if want := plainRead(t, table); !reflect.DeepEqual(settings(got.Sandbox), want) {
			t.Fatalf("Parse read %v; the exact keys of [sandbox] say %v", settings(got.Sandbox), want)
		}
		text, err := toml.Marshal(map[string]any{"sandbox": settings(got.Sandbox)})
		if err != nil {
			t.Fatalf("rendering %+v: %v", got.Sandbox, err)
		}
		again, err := Parse(text, "again.toml")
		if err != nil || !reflect.DeepEqual(settings(again.Sandbox), settings(got.Sandbox)) {
			t.Fatalf("%+v renders as\n%s\nwhich parses to %+v, %v", settings(got.Sandbox), text, settings(again.Sandbox), err)
		}
	})
}

// settings flattens a Sandbox to key → value, the keys that are set only.
func settings(s Sandbox) map[string]any {
	m := map[string]any{}
	if s.Mode != nil {
		m["mode"] = string(s.Mode.Value)
	}
	if s.Net != nil {
		m["net"] = string(s.Net.Value)
	}
	if s.Seccomp != nil {
		m["seccomp"] = *s.Seccomp
	}
	if s.FailClosed != nil {
		m["fail_closed"] = *s.FailClosed
	}
	for k, l := range map[string][]string{"allow_write": s.AllowWrite, "read_only": s.ReadOnly, "hide": s.Hide, "allow_socket": s.AllowSocket} {
		if l != nil {
			m[k] = l
		}
	}
	return m
}

// plainRead is what a TOML reader that knows nothing of Go finds under
// the known keys of the [sandbox] table.
func plainRead(t *testing.T, table map[string]any) map[string]any {
	m := map[string]any{}
	for k, v := range table {
		switch v := v.(type) {
		case string, bool:
			m[k] = v
		case []any:
			l := make([]string, len(v))
			for i, s := range v {
				l[i], _ = s.(string)
			}
			m[k] = l
		default:
			t.Fatalf("Parse accepted %s = %#v", k, v)
		}
	}
	return m
}
