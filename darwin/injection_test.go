package darwin

import (
	"slices"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// slot says where a hostile path goes in the policy.
type slot int

const (
	slotDataDir slot = iota
	slotAllowWrite
	slotHome
	slotHide
	slotReadOnly
)

func (s slot) String() string {
	return [...]string{"data dir", "--allow-write", "home", "--hide", "--read-only"}[s]
}

// policyWith builds the policy directly (not through profiles.New) so the
// renderer's own checks are what is tested.
func policyWith(s slot, path string) profiles.Policy {
	p := profiles.Policy{
		Mode:       profiles.ModeSandbox,
		DataDir:    "/Users/alice/.omega",
		Home:       testHome,
		AllowWrite: []string{"/Users/alice/src"},
		Net:        profiles.NetNone,
	}
	switch s {
	case slotDataDir:
		p.DataDir = path
	case slotAllowWrite:
		p.AllowWrite = append(p.AllowWrite, path)
	case slotHome:
		p.Home = path
	case slotHide:
		p.Hide = []string{path}
	case slotReadOnly:
		p.ReadOnly = []string{path}
	}
	return p
}

// hostile paths: each either renders a profile whose text is the same as
// with a harmless path in its place (so it grants nothing more), with the
// path only in a -D value, or is rejected.
var hostile = []struct {
	path    string
	wantErr bool
}{
	{`/Users/alice/x") (allow file-write* (subpath "/`, false},
	{`/Users/alice/x\") (allow file-write* (subpath \"/`, false},
	{"/Users/alice/x\")\n(allow file-write* (subpath \"/\"))\n;", false},
	{`/Users/alice/x"))(allow default)(allow file-write*`, false},
	{`/Users/alice/x;(allow file-write* (subpath "/"))`, false},
	{`/Users/alice/x)`, false},
	{`/Users/alice/#"^/.*$"`, false},
	{`/Users/alice/(param "DATA_DIR")`, false},
	{`/Users/alice/back\\slash\`, false},
	{"/Users/alice/new\nline", false},
	{"/Users/alice/tab\there", false},
	{"/Users/alice/ümlaut 😀 space", false},
	{"/Users/alice/-DDATA_DIR=/", false},
	{"/Users/alice/nul\x00byte", true},
	{"relative/path", true},
	{"", true},
	{"/", true},
	{"/Users/../..", true},
}

func TestInjection(t *testing.T) {
	for _, s := range []slot{slotDataDir, slotAllowWrite, slotHome, slotHide, slotReadOnly} {
		baseline, err := Render(policyWith(s, "/Users/alice/benign"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hostile {
			t.Run(s.String()+"/"+h.path, func(t *testing.T) {
				pr, err := Render(policyWith(s, h.path), nil)
				checkHostile(t, s, h.path, h.wantErr, baseline, pr, err)
			})
		}
	}
}

func checkHostile(t *testing.T, s slot, path string, wantErr bool, baseline, pr Profile, err error) {
	t.Helper()
	canon, cerr := Canonical(path, nil)
	if s != slotDataDir && s != slotAllowWrite && cerr == nil && canon == "/" {
		// Home "/" is not a writable root itself: ~/.claude is /.claude;
		// a --hide or --read-only "/" only takes rights away.
		wantErr = false
	}
	if wantErr || err != nil {
		if wantErr != (err != nil) {
			t.Fatalf("error = %v, want error %v", err, wantErr)
		}
		return
	}
	if pr.Text != baseline.Text {
		t.Errorf("profile text changed with the path:\n%s\nbaseline:\n%s", pr.Text, baseline.Text)
	}
	if !slices.EqualFunc(pr.Params, baseline.Params, func(a, b Param) bool { return a.Name == b.Name }) {
		t.Errorf("params %v, want the names of %v", pr.Params, baseline.Params)
	}
	found := canon == "/"
	for _, p := range pr.Params {
		found = found || p.Value == canon
	}
	if !found {
		t.Errorf("no -D value holds the path; params %v", pr.Params)
	}
}
