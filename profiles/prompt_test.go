package profiles

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func TestPromptConstraintGolden(t *testing.T) {
	for _, m := range Modes {
		t.Run(string(m), func(t *testing.T) {
			got, err := PromptConstraint(m, "/home/alice/.omega/workspace")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "prompt_"+string(m)+".golden")
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run: go test ./profiles -update)", err)
			}
			if got != string(want) {
				t.Errorf("prompt for %s differs from %s (run: go test ./profiles -update)\ngot:\n%s", m, golden, got)
			}
		})
	}
	if _, err := PromptConstraint("bogus", "/w"); err == nil {
		t.Error("unknown mode must be an error")
	}
}

func TestDisplayName(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Modes {
		n := DisplayName(m)
		if n == "" || n == string(m) || seen[n] {
			t.Errorf("DisplayName(%s) = %q", m, n)
		}
		seen[n] = true
	}
}
