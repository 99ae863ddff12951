package nsexec

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Probe starts the init stage in every namespace the sandbox uses, lets
// it mount what the sandbox mounts, and reports whether that worked.
func Probe() error {
	cmd, err := Command(context.Background(), &Spec{Probe: true, Mounts: &MountPlan{}}, Namespaces{Enabled: true, Net: true})
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return fmt.Errorf("%w: %s", err, msg)
		}
		return err
	}
	return nil
}
