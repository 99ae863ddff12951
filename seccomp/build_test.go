package seccomp

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuildsEverywhere builds and vets the package the ways CI and
// users do: without cgo (no libseccomp: the stub), and for macOS, where
// nothing but the pure-Go parts exist. Then it runs the stub's tests.
func TestBuildsEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{[]string{"CGO_ENABLED=0"}, []string{"build", "."}},
		{[]string{"CGO_ENABLED=0"}, []string{"vet", "."}},
		{[]string{"GOOS=darwin", "CGO_ENABLED=0"}, []string{"vet", "."}},
		{[]string{"GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=0"}, []string{"build", "."}},
		{[]string{"CGO_ENABLED=0"}, []string{"test", "-count=1", "-run", "^(TestStub|TestBadInput|TestDescribe)$", "."}},
	} {
		cmd := exec.Command(gotool, c.args...)
		cmd.Env = append(os.Environ(), c.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%v go %v: %v\n%s", c.env, c.args, err, out)
		}
	}
}
