package sandbox

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// keysOf is the quoted keys (and projects) that lines name, in order.
func keysOf(lines []string) []string {
	var out []string
	for _, l := range lines {
		rest, ok := strings.CutPrefix(l, "the program changed \"")
		if strings.Contains(l, "no longer parses as a JSON object") {
			out = append(out, "not JSON")
			continue
		}
		if !ok {
			out = append(out, l)
			continue
		}
		key, rest, _ := strings.Cut(rest, "\"")
		if p, ok := strings.CutPrefix(rest, " of project "); ok {
			p, _, _ = strings.Cut(p, " in ")
			key = p + ":" + key
		}
		out = append(out, key)
	}
	return out
}

func TestSettingsChanges(t *testing.T) {
	hook := `{"SessionStart":[{"hooks":[{"type":"command","command":"evil"}]}]}`
	cases := []struct {
		name, before, after string
		want                []string
	}{
		{"same bytes", `{"hooks":` + hook + `}`, `{"hooks":` + hook + `}`, nil},
		{"hook planted", `{"model":"sonnet"}`, `{"model":"sonnet","hooks":` + hook + `}`, []string{"hooks"}},
		{"file made", ``, `{"apiKeyHelper":"sh -c evil"}`, []string{"apiKeyHelper"}},
		{"reformatted, keys reordered", `{"env":{"A":"1","B":"2"},"hooks":` + hook + `}`, "{\n \"hooks\": " + hook + ",\n \"env\": {\"B\": \"2\", \"A\": \"1\"}\n}", nil},
		{"unrelated keys", `{"model":"sonnet","permissions":{"allow":["Bash(ls)"]}}`, `{"model":"opus","permissions":{"allow":["Bash(ls)","Read"]}}`, nil},
		{"hooks removed or emptied", `{"hooks":` + hook + `,"statusLine":{"command":"x"}}`, `{"hooks":{}}`, nil},
		{"empty values set", `{}`, `{"hooks":{},"env":{},"enabledMcpjsonServers":[],"skipDangerousModePermissionPrompt":false,"apiKeyHelper":""}`, nil},
		{"narrow grants added", `{"permissions":{"allow":["Bash(ls)"]}}`, `{"permissions":{"allow":["Bash(ls)","Bash(npm test:*)","Bash(git status)","BashOutput","Read(~/x)"]}}`, nil},
		{"Bash granted", `{"permissions":{"allow":["Bash(ls)"]}}`, `{"permissions":{"allow":["Bash(ls)","Bash"]}}`, []string{"permissions.allow"}},
		{"… any command", `{}`, `{"permissions":{"allow":["Bash(*)"]}}`, []string{"permissions.allow"}},
		{"… a shell", `{}`, `{"permissions":{"allow":["Bash(sh -c:*)"]}}`, []string{"permissions.allow"}},
		{"… an interpreter by path", `{}`, `{"permissions":{"allow":["Bash( /usr/bin/python3.12 :*)"]}}`, []string{"permissions.allow"}},
		{"… a runner", `{}`, `{"permissions":{"allow":["Bash(npx:*)"]}}`, []string{"permissions.allow"}},
		{"… there before", `{"permissions":{"allow":["Bash"]}}`, `{"permissions":{"allow":["Read","Bash"]}}`, nil},
		{"nested key", `{"permissions":{"allow":["Read"]}}`, `{"permissions":{"allow":["Read"],"defaultMode":"bypassPermissions"}}`, []string{"permissions.defaultMode"}},
		{"command changed", `{"statusLine":{"type":"command","command":"a"}}`, `{"statusLine":{"type":"command","command":"b"}}`, []string{"statusLine"}},
		{"several, in table order", `{}`, `{"env":{"NODE_OPTIONS":"--require /tmp/x.js"},"hooks":` + hook + `,"enabledPlugins":{"p@m":true},"extraKnownMarketplaces":{"m":{}},"otelHeadersHelper":"x","awsAuthRefresh":"x","awsCredentialExport":"x","gcpAuthRefresh":"x","fileSuggestion":{"command":"x"},"enableAllProjectMcpServers":true}`,
			[]string{"hooks", "fileSuggestion", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh", "otelHeadersHelper", "env", "enabledPlugins", "extraKnownMarketplaces", "enableAllProjectMcpServers"}},
		// Go matches keys without regard to case, JSON.parse exactly:
		// every spelling counts, so that none can hide the real key.
		{"a key spelt otherwise after the real one", `{}`, `{"hooks":` + hook + `,"HOOKS":{}}`, []string{"hooks"}},
		{"… before it", `{}`, `{"Hooks":{},"hooks":` + hook + `}`, []string{"hooks"}},
		{"… folded (ſ is s to Go)", `{}`, `{"hooks":` + hook + `,"permiſſions":{"defaultMode":"default"},"permissions":{"defaultMode":"bypassPermissions"}}`, []string{"hooks", "permissions.defaultMode"}},
		{"… only: named, erring towards a report", `{}`, `{"HOOKS":` + hook + `}`, []string{"hooks"}},
		{"duplicate key, planted first", `{}`, `{"hooks":` + hook + `,"hooks":{}}`, []string{"hooks"}},
		{"duplicate key, planted last", `{}`, `{"hooks":{},"hooks":` + hook + `}`, []string{"hooks"}},
		{"permissions not an object", `{}`, `{"permissions":"x","hooks":` + hook + `}`, []string{"hooks"}},
		{"unreadable before", `{"hooks":`, `{"hooks":` + hook + `}`, []string{"hooks"}},
		{"no longer JSON", `{}`, `{"hooks":` + hook, []string{"not JSON"}},
		{"not an object", `{}`, `[1]`, []string{"not JSON"}},
		{"null", `{}`, `null`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := settingsChanges("~/.claude/settings.json", []byte(c.before), []byte(c.after))
			if !slices.Equal(keysOf(got), c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestSettingsChangeLine(t *testing.T) {
	got := settingsChanges("~/.claude/settings.json", nil, []byte(`{"hooks":{"Stop":[{}]}}`))
	want := `the program changed "hooks" in ~/.claude/settings.json: Claude Code outside omega-run runs these commands; check it before running claude unconfined`
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestStateChanges(t *testing.T) {
	srv := `{"evil":{"command":"sh","args":["-c","x"]}}`
	fresh := `{"allowedTools":[],"history":[],"mcpServers":{},"enabledMcpjsonServers":[],"disabledMcpjsonServers":[],"hasTrustDialogAccepted":false}`
	cases := []struct {
		name, before, after string
		want                []string
	}{
		{"user MCP server", `{"numStartups":1}`, `{"numStartups":2,"mcpServers":` + srv + `}`, []string{"mcpServers"}},
		{"no home file", ``, `{"mcpServers":` + srv + `}`, []string{"mcpServers"}},
		{"counters and history", `{"numStartups":1,"projects":{"/p":` + fresh + `}}`, `{"numStartups":2,"tipsHistory":{"a":1},"projects":{"/p":{"history":[{"display":"hi"}],"mcpServers":{}}}}`, nil},
		{"a new project as Claude Code makes it", `{}`, `{"projects":{"/new":` + fresh + `}}`, nil},
		{"trust and a project server", `{"projects":{"/p":` + fresh + `}}`, `{"projects":{"/p":{"hasTrustDialogAccepted":true,"mcpServers":` + srv + `}}}`, []string{"/p:mcpServers"}},
		{"projects in order", `{}`, `{"projects":{"/b":{"enabledMcpjsonServers":["x"]},"/a":{"enableAllProjectMcpServers":true}}}`, []string{"/a:enableAllProjectMcpServers", "/b:enabledMcpjsonServers"}},
		{"top-level flags", `{}`, `{"bypassPermissionsModeAccepted":true,"skipDangerousModePermissionPrompt":true,"enableAllProjectMcpServers":true,"enabledMcpjsonServers":["s"]}`,
			[]string{"enableAllProjectMcpServers", "enabledMcpjsonServers", "bypassPermissionsModeAccepted", "skipDangerousModePermissionPrompt"}},
		{"a server renamed", `{"mcpServers":` + srv + `}`, `{"mcpServers":{"good":{"command":"sh","args":["-c","x"]}}}`, []string{"mcpServers"}},
		{"a server removed", `{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"}}}`, `{"mcpServers":{"a":{"command":"x"}}}`, []string{"mcpServers"}},
		{"projects not an object", `{}`, `{"projects":[1]}`, nil},
		{"a project not an object", `{}`, `{"projects":{"/p":1}}`, nil},
		{"top-level keys match exactly, as in JSON.parse", `{}`, `{"MCPServers":` + srv + `,"PROJECTS":{"/p":{"mcpServers":` + srv + `}}}`, nil},
		{"a key twice: each value counts", `{}`, `{"mcpServers":` + srv + `,"mcpServers":{}}`, []string{"mcpServers"}},
		{"not an object", `{}`, `[{"mcpServers":` + srv + `}]`, []string{"not JSON"}},
		{"cut short", `{}`, `{"mcpServers":` + srv, []string{"not JSON"}},
		{"a project's key spelt otherwise: counts", `{}`, `{"projects":{"/p":{"MCPSERVERS":` + srv + `}}}`, []string{"/p:mcpServers"}},
		{"a project in \"Projects\" too", `{}`, `{"projects":{"/p":{"mcpServers":` + srv + `}},"Projects":{"/p":{}}}`, []string{"/p:mcpServers"}},
		{"… the other way round", `{}`, `{"Projects":{"/p":{}},"projects":{"/p":{"mcpServers":` + srv + `}}}`, []string{"/p:mcpServers"}},
		{"a project twice: the last wins, as in JSON.parse", `{}`, `{"projects":{"/p":{"mcpServers":` + srv + `},"/p":{}}}`, nil},
		{"server moved between projects", `{"projects":{"/a":{"mcpServers":` + srv + `}}}`, `{"projects":{"/b":{"mcpServers":` + srv + `}}}`, []string{"/b:mcpServers"}},
		{"escapes in a project's path", `{}`, `{"projects":{"/p\u001b[2J":{"mcpServers":` + srv + `}}}`, []string{`/p\u001b[2J:mcpServers`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := stateChanges("~/.claude.json", []byte(c.before), []byte(c.after))
			if !slices.Equal(keysOf(got), c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
			for _, l := range got {
				if strings.ContainsRune(l, 0x1b) {
					t.Errorf("raw escape in %q", l)
				}
			}
		})
	}
}

func TestCapped(t *testing.T) {
	for _, n := range []int{0, 1, maxReported, maxReported + 1, 40} {
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprint(i))
		}
		got := capped(lines, cfgRest)
		want := min(n, maxReported+1)
		if len(got) != want {
			t.Errorf("%d lines: %d out, want %d", n, len(got), want)
		}
		if n > maxReported && !strings.HasPrefix(got[maxReported], fmt.Sprintf("and %d more changes", n-maxReported)) {
			t.Errorf("%d lines: last %q", n, got[maxReported])
		}
	}
}

func TestShown(t *testing.T) {
	for _, c := range []struct{ home, p, want string }{
		{"/h", "/h/.claude/settings.json", "~/.claude/settings.json"},
		{"/h", "/h", "/h"},
		{"/h", "/hx/y", "/hx/y"},
		{"/h", "/h/..x/y", "~/..x/y"},
		{"/h/u", "/h/v", "/h/v"},
		{"/h", "/w/.claude/settings.local.json", "/w/.claude/settings.local.json"},
		{"/", "/w", "/w"},
	} {
		if got := shown(c.home, c.p); got != c.want {
			t.Errorf("shown(%q, %q) = %q, want %q", c.home, c.p, got, c.want)
		}
	}
}

// TestCfgTables: each key of the tables has its field in the document
// types, and each field its key (field panics on a missing one).
func TestCfgTables(t *testing.T) {
	for _, c := range []struct {
		doc  any
		keys []cfgKey
	}{{&settingsDoc{}, settingsKeys}, {&stateDoc{}, stateKeys}, {&projectDoc{}, projectKeys}} {
		for _, k := range c.keys {
			field(c.doc, k.name)
		}
		if n := foundFields(reflect.TypeOf(c.doc).Elem()); n != len(c.keys) {
			t.Errorf("%T has %d keys, its table %d", c.doc, n, len(c.keys))
		}
	}
}

func foundFields(t reflect.Type) int {
	n := 0
	for i := range t.NumField() {
		switch f := t.Field(i).Type; {
		case f == reflect.TypeFor[found]():
			n++
		case f.Kind() == reflect.Struct:
			n += foundFields(f)
		}
	}
	return n
}
