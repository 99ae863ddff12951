package sandbox

import (
	"context"
	"os"
	"os/exec"
)

// plainCommand runs the program with nothing in between (rwx, and the
// fallback where no sandbox exists).
func plainCommand(ctx context.Context, p *plan) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.path, p.argv[1:]...)
	cmd.Args[0] = p.argv[0]
	cmd.Env = append(os.Environ(), programEnv(p.policy)...)
	cmd.Dir = p.workdir
	cmd.ExtraFiles = p.extraFiles
	return cmd
}
