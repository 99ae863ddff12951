package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/nsexec"
)

// TestCommandWithoutInit: where the init stage is the Go one (no cgo, or
// -tags omega_goinit), a command before Init is an error; starting it
// would run main again, and in rx mode again and again.
func TestCommandWithoutInit(t *testing.T) {
	saved := initCalled.Load()
	initCalled.Store(false)
	defer initCalled.Store(saved)
	for _, mode := range []Mode{ModeRX, ModeSandbox} {
		_, err := Options{Mode: mode, Home: t.TempDir()}.CommandContext(context.Background(), "true")
		if nsexec.CInit && err != nil {
			t.Errorf("%s, C init stage: %v", mode, err)
		}
		if !nsexec.CInit && !errors.Is(err, errNoInit) {
			t.Errorf("%s, Go init stage: %v, want %v", mode, err, errNoInit)
		}
	}
	if !nsexec.CInit { // with the C stage, Run would start a real sandbox
		if _, err := (Options{Mode: ModeSandbox, Home: t.TempDir()}).Run("true"); !errors.Is(err, errNoInit) {
			t.Errorf("Run, Go init stage: %v, want %v", err, errNoInit)
		}
	}
	if _, err := (Options{Mode: ModeRWX, Home: t.TempDir()}).CommandContext(context.Background(), "true"); err != nil {
		t.Errorf("rwx needs no init stage: %v", err)
	}
}

// TestCheckWithoutInit: Check before Init, in a build whose init stage is
// the Go one, says that Init is missing. Its probe ran main again instead
// of the init stage, which exited 0, and Check reported namespaces that
// it had never tried.
func TestCheckWithoutInit(t *testing.T) {
	if nsexec.CInit {
		t.Skip("the C init stage needs no Init")
	}
	saved := initCalled.Load()
	initCalled.Store(false)
	defer initCalled.Store(saved)
	r := Check()
	if r.Namespaces || !strings.Contains(r.NamespacesError, errNoInit.Error()) {
		t.Errorf("Check without Init: Namespaces %v, error %q; want false and %q", r.Namespaces, r.NamespacesError, errNoInit)
	}
}
