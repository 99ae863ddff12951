package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/internal/termsafe"
)

// Claude Code runs what its settings name wherever it is started, and
// ~/.claude is writable by design: a confined program can plant a hook,
// an API key helper or an MCP server that an unconfined claude later
// runs. Nothing can hold those files (Claude writes them), so the
// launcher looks at them before the run and names, after it, each such
// key the program changed.

// cfgKey is a settings key that makes Claude Code run something, or run
// it without asking, and what that means for the user.
type cfgKey struct{ name, why string }

const (
	whyRuns    = "Claude Code outside omega-run runs these commands"
	whyEnv     = "Claude Code outside omega-run sets these variables for itself and what it runs (NODE_OPTIONS can load code)"
	whyAsks    = "Claude Code outside omega-run asks less before running commands"
	whyPlugins = "Claude Code outside omega-run loads these plugins, whose hooks and MCP servers run commands"
	whyMCP     = "Claude Code outside omega-run starts these MCP servers"
	whyGrant   = "Claude Code outside omega-run runs any command it is asked to, without asking (a grant of Bash, a shell or an interpreter)"
)

// settingsKeys are looked at in settings.json and settings.local.json
// (a dot: a key of an object).
var settingsKeys = []cfgKey{
	{"hooks", whyRuns}, {"apiKeyHelper", whyRuns}, {"statusLine", whyRuns}, {"fileSuggestion", whyRuns},
	{"awsAuthRefresh", whyRuns}, {"awsCredentialExport", whyRuns}, {"gcpAuthRefresh", whyRuns},
	{"otelHeadersHelper", whyRuns}, {"env", whyEnv}, {"permissions.defaultMode", whyAsks}, {"permissions.allow", whyGrant},
	{"skipDangerousModePermissionPrompt", whyAsks}, {"enabledPlugins", whyPlugins},
	{"extraKnownMarketplaces", whyPlugins}, {"enableAllProjectMcpServers", whyMCP}, {"enabledMcpjsonServers", whyMCP},
}

// stateKeys are looked at in ~/.claude.json, projectKeys in each of its
// projects.
var (
	stateKeys = []cfgKey{
		{"mcpServers", whyMCP}, {"enableAllProjectMcpServers", whyMCP}, {"enabledMcpjsonServers", whyMCP},
		{"bypassPermissionsModeAccepted", whyAsks}, {"skipDangerousModePermissionPrompt", whyAsks},
	}
	projectKeys = []cfgKey{
		{"mcpServers", whyMCP}, {"enableAllProjectMcpServers", whyMCP}, {"enabledMcpjsonServers", whyMCP},
	}
)

// maxSettings bounds a settings file read: they are a few KB.
const maxSettings = 4 << 20

// maxReported bounds the lines a report after the run gives for one kind
// of change (Claude Code's settings, each kind of the git scan's).
const maxReported = 10

// cfgChange is one key the program changed: in file, of project when
// the key is one of ~/.claude.json's projects.
type cfgChange struct {
	file, project string
	key           cfgKey
}

func (c cfgChange) String() string {
	of := ""
	if c.project != "" {
		of = " of project " + termsafe.String(c.project)
	}
	return fmt.Sprintf("the program changed %q%s in %s: %s; check it before running claude unconfined",
		c.key.name, of, termsafe.String(c.file), c.key.why)
}

// found is every value, but empty ones (null, false, 0, "", {}, []:
// nothing runs from them, and Claude Code writes them into each new
// project), that a document gives one key. encoding/json matches a
// struct's field names without regard to case, where Claude Code's
// JSON.parse matches them exactly: "MCPServers" lands here too. Keeping
// every such value, not the last, errs towards naming a change: a key
// spelt otherwise cannot hide the real one. Each value is kept as its
// canonical JSON (objects' keys sorted), so that comparing two files is a
// set lookup per value: a planted file of many repeated keys must not make
// the comparison quadratic.
type found []string

func (f *found) UnmarshalJSON(b []byte) error {
	if len(b) > maxDecodedValue {
		// Kept compact as it is, not decoded: a tree of a million small
		// objects took thirty times the file. Keys in another order then
		// count as a change, which errs towards naming one.
		var c bytes.Buffer
		if json.Compact(&c, b) == nil {
			*f = append(*f, c.String())
		}
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		if !x {
			return nil
		}
	case string:
		if x == "" {
			return nil
		}
	case json.Number:
		if f, err := x.Float64(); err == nil && f == 0 {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	*f = append(*f, string(canon))
	return nil
}

// maxDecodedValue is the largest value found decodes to compare it
// canonically (an MCP server's entry is a few hundred bytes).
const maxDecodedValue = 64 << 10

// maxProjects bounds the projects of one state file compared key by key
// (a heavy user has thousands; Claude Code adds one for each directory
// it starts in): a program that leaves a million made the launcher hold
// gigabytes. Past it, one line says the rest went unchecked.
const maxProjects = 50_000

// settingsDoc holds settingsKeys (a test checks they match).
type settingsDoc struct {
	Hooks               found `json:"hooks"`
	APIKeyHelper        found `json:"apiKeyHelper"`
	StatusLine          found `json:"statusLine"`
	FileSuggestion      found `json:"fileSuggestion"`
	AWSAuthRefresh      found `json:"awsAuthRefresh"`
	AWSCredentialExport found `json:"awsCredentialExport"`
	GCPAuthRefresh      found `json:"gcpAuthRefresh"`
	OtelHeadersHelper   found `json:"otelHeadersHelper"`
	Env                 found `json:"env"`
	Permissions         struct {
		DefaultMode found       `json:"defaultMode"`
		Allow       shellGrants `json:"allow"`
	} `json:"permissions"`
	SkipDangerousModePermissionPrompt found `json:"skipDangerousModePermissionPrompt"`
	EnabledPlugins                    found `json:"enabledPlugins"`
	ExtraKnownMarketplaces            found `json:"extraKnownMarketplaces"`
	EnableAllProjectMcpServers        found `json:"enableAllProjectMcpServers"`
	EnabledMcpjsonServers             found `json:"enabledMcpjsonServers"`
}

// stateDoc holds stateKeys, projectDoc projectKeys.
type stateDoc struct {
	McpServers                        found        `json:"mcpServers"`
	EnableAllProjectMcpServers        found        `json:"enableAllProjectMcpServers"`
	EnabledMcpjsonServers             found        `json:"enabledMcpjsonServers"`
	BypassPermissionsModeAccepted     found        `json:"bypassPermissionsModeAccepted"`
	SkipDangerousModePermissionPrompt found        `json:"skipDangerousModePermissionPrompt"`
	Projects                          projectLists `json:"-"`
	// manyProjects: more than maxProjects, the rest not decoded.
	manyProjects bool
}

type projectDoc struct {
	McpServers                 found `json:"mcpServers"`
	EnableAllProjectMcpServers found `json:"enableAllProjectMcpServers"`
	EnabledMcpjsonServers      found `json:"enabledMcpjsonServers"`
}

// projectLists is every entry a state file gives each project name, in
// every "projects" object it holds, as found is each value of a key.
type projectLists map[string][]*projectDoc

// project is every entry the state gives the project name.
func (l projectLists) project(name string) []*projectDoc { return l[name] }

// decodeDoc decodes data into doc, one pass. A value of the wrong type
// below the top level leaves that key empty, as found would.
func decodeDoc(data []byte, doc any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil // no file, or an empty one: no settings
	}
	err := json.Unmarshal(data, doc)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return nil
	}
	return err
}

// skipped is a value decodeState has no use for.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// field is doc's found for key (a dot: a key of an object).
func field(doc any, key string) *found {
	v := reflect.ValueOf(doc).Elem()
	for part := range strings.SplitSeq(key, ".") {
		t, i := v.Type(), 0
		for ; i < t.NumField() && strings.Split(t.Field(i).Tag.Get("json"), ",")[0] != part; i++ {
		}
		v = v.Field(i) // a missing field panics: the tables' test catches it
	}
	if g, ok := v.Addr().Interface().(*shellGrants); ok {
		return &g.found
	}
	return v.Addr().Interface().(*found)
}

// changedKeys lists the keys that after gives a value before did not
// have. A key removed or emptied is not listed: nothing runs from it.
func changedKeys[D any](before, after []*D, keys []cfgKey) []cfgKey {
	var out []cfgKey
	for _, k := range keys {
		was := map[string]bool{}
		for _, d := range before {
			for _, v := range *field(d, k.name) {
				was[v] = true
			}
		}
		for _, d := range after {
			if slices.ContainsFunc(*field(d, k.name), func(v string) bool { return !was[v] }) {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// notJSON is the line for a file the program left that does not parse:
// Claude Code may read it otherwise than Go does.
func notJSON(file string, err error) []string {
	return []string{fmt.Sprintf("the program changed %s, which no longer parses as a JSON object (%s): check it before running claude unconfined", termsafe.String(file), termsafe.String(err.Error()))}
}

// settingsChanges names what changed between two contents of the
// settings file shown as file.
func settingsChanges(file string, before, after []byte) []string {
	if bytes.Equal(before, after) {
		return nil
	}
	var b, a settingsDoc
	if err := decodeDoc(after, &a); err != nil {
		return notJSON(file, err)
	}
	_ = decodeDoc(before, &b) // unreadable before: every key set now is new
	var out []string
	for _, k := range changedKeys([]*settingsDoc{&b}, []*settingsDoc{&a}, settingsKeys) {
		out = append(out, cfgChange{file: file, key: k}.String())
	}
	return out
}

// stateChanges names what changed between two contents of Claude Code's
// state file (~/.claude.json, up to maxState), shown as file: the
// top-level keys, then each project's, projects in order. Each content
// is decoded once, the two at once: this runs after every Claude Code
// session, and the file can be tens of MB.
func stateChanges(file string, before, after []byte) []string {
	if bytes.Equal(before, after) {
		return nil
	}
	var b, a stateDoc
	done := make(chan struct{})
	go func() {
		_ = decodeState(before, &b) // unreadable before: every key set now is new
		close(done)
	}()
	err := decodeState(after, &a)
	<-done
	if err != nil {
		return notJSON(file, err)
	}
	var out []string
	for _, k := range changedKeys([]*stateDoc{&b}, []*stateDoc{&a}, stateKeys) {
		out = append(out, cfgChange{file: file, key: k}.String())
	}
	if a.manyProjects {
		out = append(out, fmt.Sprintf("the program left more than %d projects in %s: the rest are not compared; check their mcpServers before running claude unconfined", maxProjects, termsafe.String(file)))
	}
	var names []string
	for name := range a.Projects {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, k := range changedKeys(b.Projects.project(name), a.Projects.project(name), projectKeys) {
			out = append(out, cfgChange{file: file, project: name, key: k}.String())
		}
	}
	return out
}

// capped is lines, or its first maxReported and one line "and N more
// rest" (the git scan's report too).
func capped(lines []string, rest string) []string {
	if len(lines) <= maxReported {
		return lines
	}
	return append(lines[:maxReported:maxReported], fmt.Sprintf("and %d more %s", len(lines)-maxReported, rest))
}

// cfgRest ends the capped report of Claude Code's settings.
const cfgRest = "changes to Claude Code's settings (not listed): check ~/.claude, ~/.claude.json and the projects' .claude/ before running claude unconfined"

// shown is p as the user knows it: ~ for home.
func shown(home, p string) string {
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") && home != "/" {
		return "~/" + rel
	}
	return p
}
