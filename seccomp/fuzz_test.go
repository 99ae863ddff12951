package seccomp

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; a profile it accepts marshals back to
// JSON that parses to the same profile, and Describe (explain) renders
// it without failing for any reason but two unconditional actions.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(dockerDefaultPath); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		`{"defaultAction": "SCMP_ACT_ALLOW"}`,
		`{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 13, "architectures": ["SCMP_ARCH_X86"], "flags": ["SECCOMP_FILTER_FLAG_LOG"]}`,
		`{"defaultAction": "SCMP_ACT_ALLOW", "archMap": [{"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X32"]}]}`,
		`{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"name": "mount", "names": ["umount2"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}`,
		`{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["kill"], "action": "SCMP_ACT_TRACE", "errnoRet": 65535,
			"args": [{"index": 1, "value": 9, "op": "SCMP_CMP_EQ"}, {"index": 0, "value": 255, "valueTwo": 1, "op": "SCMP_CMP_MASKED_EQ"}]}]}`,
		`{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["clone"], "action": "SCMP_ACT_ALLOW",
			"includes": {"arches": ["amd64"], "minKernel": "4.8"}, "excludes": {"caps": ["CAP_SYS_ADMIN"], "minKernel": "7.0"}}]}`,
		`{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mount"], "action": "SCMP_ACT_ERRNO"}, {"names": ["mount"], "action": "SCMP_ACT_KILL"}]}`,
		`{"defaultAction": "SCMP_ACT_NOTIFY", "listenerPath": "/run/x"}`, `{"defaultAction": "SCMP_ACT_ALLOW"} {}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("p.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "p.json") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line naming the profile", err)
			}
			return
		}
		text, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		// Compared as JSON: "architectures": [] and none are the same.
		again, err := Parse("p.json", text)
		if err != nil {
			t.Fatalf("%+v marshals to %s, which does not parse: %v", p, text, err)
		}
		if text2, _ := json.Marshal(again); !bytes.Equal(text2, text) {
			t.Fatalf("%s parses and marshals to %s", text, text2)
		}
		d := Describe(p)
		if _, after, failed := strings.Cut(d, "\nerror: "); failed && !strings.Contains(after, "two unconditional actions") {
			t.Fatalf("Describe failed on a profile Parse accepted:\n%s", d)
		}
	})
}
