package seccomp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: every kind of bad profile gets a one-line error, which
// says where and what, before anything runs.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		json string // written to dir/<name>.json unless path is set
		path string
		want []string // substrings of the error, in order
		not  string   // not in the error
	}{
		{name: "missing file", path: filepath.Join(dir, "nope.json"), want: []string{"nope.json: no such file or directory"}, not: "read profile"},
		{name: "unknown name", path: "defualt", want: []string{`unknown profile "defualt": not a built-in (default, strict, none) and no such file`}},
		{name: "unreadable", path: dir, want: []string{"is a directory"}},
		{name: "empty", json: "", want: []string{"empty.json: empty file"}},
		{name: "syntax", json: "{\n\t\"defaultAction\": \"SCMP_ACT_ALLOW\",\n\t\"syscalls\": [{\"names\": [\"read\"] \"action\": \"SCMP_ACT_ERRNO\"}]\n}\n",
			want: []string{"syntax.json:3:34: invalid character '\"' after object key:value pair"}},
		{name: "truncated", json: "{\n\t\"defaultAction\": \"SCMP_ACT_ALLOW\",\n\t\"syscalls\": [\n", want: []string{"truncated.json:4:1: unexpected end of JSON"}},
		{name: "type", json: "{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n \"syscalls\": [{\"names\": \"read\", \"action\": \"SCMP_ACT_ALLOW\"}]}",
			want: []string{"type.json:2:", "syscalls.names: got a string, want a list"}},
		{name: "negative", json: `{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": -1}`, want: []string{"negative.json:1:57: defaultErrnoRet: got a number -1, want a non-negative integer"}},
		{name: "array", json: "[]", want: []string{"array.json:1:1: the profile: got a list, want an object"}},
		{name: "bool", json: `{"defaultAction": true}`, want: []string{"bool.json:1:22: defaultAction: got a boolean, want a string"}},
		{name: "trailing", json: `{"defaultAction": "SCMP_ACT_ALLOW"} {}`, want: []string{"trailing.json:1:37: unexpected data after the profile"}},
		{name: "unknown field", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscals": []}`, want: []string{`unknown field "syscals"`}},
		{name: "no default", json: `{"syscalls": []}`, want: []string{"no default.json: defaultAction is missing"}},
		{name: "bad default", json: `{"defaultAction": "SCMP_ACT_DENY"}`, want: []string{`defaultAction: unknown action "SCMP_ACT_DENY"`}},
		{name: "bad action", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mount"], "action": "SCMP_ACT_DENY"}]}`,
			want: []string{`bad action.json: syscalls[0] (mount): unknown action "SCMP_ACT_DENY" (want e.g. SCMP_ACT_ERRNO, SCMP_ACT_ALLOW)`}},
		{name: "bad op", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 17, "op": "SCMP_CMP_FOO"}]}]}`,
			want: []string{`syscalls[0] (socket): args[0]: unknown operator "SCMP_CMP_FOO" (want one of SCMP_CMP_NE,`}},
		// libseccomp would apply it when the low words match (found by FuzzCompile).
		{name: "value outside mask", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["personality"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 21522, "valueTwo": 4294988818, "op": "SCMP_CMP_MASKED_EQ"}]}]}`,
			want: []string{"args[0]: valueTwo 0x100005412 has bits outside the mask 0x5412 (value): the check could never hold"}},
		{name: "no op", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 17}]}]}`,
			want: []string{"args[0]: op is missing"}},
		{name: "bad index", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 6, "value": 17, "op": "SCMP_CMP_EQ"}]}]}`,
			want: []string{"args[0]: index 6 is out of range (0-5)"}},
		{name: "bad name", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["Read!"], "action": "SCMP_ACT_ERRNO"}]}`,
			want: []string{`syscalls[0] (Read!): invalid syscall name "Read!"`}},
		{name: "no names", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"action": "SCMP_ACT_ERRNO"}]}`,
			want: []string{"syscalls[0]: no syscall names"}},
		{name: "errno on allow", json: `{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "errnoRet": 1}]}`,
			want: []string{"errnoRet is only valid with SCMP_ACT_ERRNO or SCMP_ACT_TRACE, not SCMP_ACT_ALLOW"}},
		{name: "errno range", json: `{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 4095}`, want: []string{"defaultAction: errnoRet 4095 is out of range (0-4094)"}},
		{name: "notify", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_NOTIFY"}]}`,
			want: []string{"action SCMP_ACT_NOTIFY is not supported"}},
		{name: "listener", json: `{"defaultAction": "SCMP_ACT_ALLOW", "listenerPath": "/run/x.sock"}`, want: []string{"listenerPath: user notification is not supported"}},
		{name: "bad arch", json: `{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_65"]}`,
			want: []string{`architectures: unknown architecture "SCMP_ARCH_X86_65"`}},
		{name: "both arches", json: `{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86"], "archMap": [{"architecture": "SCMP_ARCH_X86_64"}]}`,
			want: []string{"both architectures and archMap are set"}},
		{name: "bad include arch", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO", "includes": {"arches": ["amd65"]}}]}`,
			want: []string{`syscalls[0] (read): unknown architecture "amd65"`}},
		{name: "bad kernel", json: `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO", "excludes": {"minKernel": "four"}}]}`,
			want: []string{`minKernel: invalid kernel version "four"`}},
		{name: "bad flag", json: `{"defaultAction": "SCMP_ACT_ALLOW", "flags": ["SECCOMP_FILTER_FLAG_FOO"]}`, want: []string{`flags: unsupported flag "SECCOMP_FILTER_FLAG_FOO"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path
			if path == "" {
				path = filepath.Join(dir, c.name+".json")
				if err := os.WriteFile(path, []byte(c.json), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			p, err := Resolve(path)
			if err == nil {
				t.Fatalf("Resolve(%s) = %+v, want an error", c.name, p)
			}
			msg := err.Error()
			// One line, without the "seccomp: " the caller puts in front.
			if strings.Contains(msg, "\n") || strings.HasPrefix(msg, "seccomp") {
				t.Errorf("error is not one line without a prefix: %q", msg)
			}
			rest := msg
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q\nwant it to contain %q", msg, w)
				}
				rest = rest[i+len(w):]
			}
			if c.not != "" && strings.Contains(msg, c.not) {
				t.Errorf("error %q contains %q", msg, c.not)
			}
		})
	}
}

func TestResolveNames(t *testing.T) {
	for _, name := range []string{"", "default", "strict"} {
		p, err := Resolve(name)
		if err != nil || p == nil || p.DefaultAction != ActAllow {
			t.Errorf("Resolve(%q) = %v, %v", name, p, err)
		}
	}
	if p, err := Resolve("none"); p != nil || err != nil {
		t.Errorf(`Resolve("none") = %v, %v; want nil, nil`, p, err)
	}
	if p, err := Resolve(dockerDefaultPath); err != nil || p.DefaultAction != ActErrno || len(p.Syscalls) == 0 {
		t.Errorf("docker-default.json: %v, %v", p, err)
	}
}

const dockerDefaultPath = "../../shared/testdata/seccomp/docker-default.json"

func TestParseKernel(t *testing.T) {
	for in, want := range map[string]kernelVersion{
		"5.8": {5, 8}, "6.18.44-fc-v657": {6, 18}, "4.15.0-45-generic": {4, 15}, "10.0": {10, 0},
	} {
		if got, err := parseKernel(in); err != nil || got != want {
			t.Errorf("parseKernel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "6", "x.y", "6.", "-1.2"} {
		if _, err := parseKernel(in); err == nil {
			t.Errorf("parseKernel(%q) succeeded", in)
		}
	}
}
