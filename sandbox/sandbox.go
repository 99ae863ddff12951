// Package sandbox is omega-run's importable API: it turns a program and a
// policy into a confined process.
//
// Any binary that uses it on Linux must call Init as the first statement of
// main, because the sandbox re-executes /proc/self/exe into an internal init
// stage:
//
//	func main() {
//		sandbox.Init()
//		cmd, err := sandbox.Command("make", sandbox.ModeSandbox, "")
//		...
//		cmd.Stdout = os.Stdout
//		if err := sandbox.Start(cmd); err != nil { … }
//		err = sandbox.Wait(cmd)
//	}
//
// The returned *exec.Cmd is not started; set Stdin, Stdout, Stderr and Env
// as for any other command. Start it with Start: cmd.Run, Start and
// Output work too, but in sandbox mode a signal sent in the first
// milliseconds may be lost, and the command's spec fd stays open in this
// process until a garbage collection. What an embedder must know besides:
//
//   - Give the working directory as Options.Workdir, not cmd.Dir: Workdir
//     is checked against the paths sandbox mode hides before the start; a
//     cmd.Dir in one (~/.ssh) fails only in the init stage, with exit
//     status 125. cmd.ExtraFiles carry the spec: pass files as
//     Options.ExtraFiles. Start refuses cmd.ExtraFiles replaced or
//     appended to, and the init stage refuses appended ones with 125 when
//     the command is started without Start. (Options.PreserveFDs passes
//     this process's own fds 3 and up, which in a Go program hold the
//     runtime's files, not yours.) cmd.SysProcAttr carries sandbox mode's
//     namespaces: set its fields (Setpgid), do not replace it; the init
//     stage refuses a command that lost them with 125.
//   - A failure after the start (the init stage's, or an exec the kernel
//     refuses) is an *exec.ExitError with status 125, 126 or 127 and one
//     line "omega-run: init: …" ("omega-run: exec …" for an exec refused) on cmd.Stderr, like a program's own exit
//     with that status; failures found before, in Command or in Start, are
//     *Error with its Code: 127 for a program not found, 126 for one not
//     executable, 125 for the rest (a cmd.Dir that is no directory,
//     cmd.ExtraFiles changed).
//   - Cancelling the context kills the whole tree in sandbox mode only; in
//     rx and rwx the program's children live on, and any that hold its
//     stdout or stderr keep Wait waiting for them: set cmd.WaitDelay.
//   - Cgroup limits (Process.Memory, Pids, CPUs; Linux, any mode) put the
//     command's whole tree, from its first instruction, in a cgroup of its
//     own that Start creates; only Start gives the command the go-ahead
//     (with cmd.Start it exits with 125 before running anything). The
//     group goes as soon as the command's process exits, killing what is
//     left in it (in rx and rwx the program's children too; rwx confines
//     nothing, and a program there that may write cgroup.procs elsewhere
//     can leave the group). Wait for it with Wait, which returns once the
//     group is gone and wraps ErrOOMKilled after an OOM kill; after
//     cmd.Wait the group goes a moment later.
//   - In rwx mode without Process settings the command is a plain
//     exec.Cmd whose Env already holds OMEGA_SANDBOX=rwx: append to
//     cmd.Env rather than replace it (the init stage of the other modes
//     sets OMEGA_SANDBOX itself).
//   - Command creates the data dir (with workspace/; tmp/ and config.toml
//     in sandbox mode) and ~/.claude when missing. Warnings found before
//     the start, and one Info line "launching" per command, go to logrus's
//     standard logger. The init stage's own (a fresh /proc refused, the
//     OOM score left unraised, connects the broker refused) are lines
//     "omega-run: warning: …" on cmd.Stderr, among the program's output
//     (JSON objects where the standard logger has a JSONFormatter): the
//     prefix tells them apart, but the program can write the same.
//     Errors and warnings name settings by the CLI's flags: --workdir is
//     Options.Workdir, --data-dir Options.DataDir, --hostname
//     Process.Hostname, and so on.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/omega-run/omega-run/profiles"
)

// Mode re-exports profiles.Mode so that embedders import one package.
type Mode = profiles.Mode

// The modes.
const (
	ModeSandbox = profiles.ModeSandbox
	ModeRX      = profiles.ModeRX
	ModeRWX     = profiles.ModeRWX
)

// Network re-exports profiles.Network.
type Network = profiles.Network

// The network settings.
const (
	NetHost = profiles.NetHost
	NetNone = profiles.NetNone
)

// ErrUnsupported is returned with FailClosed on an OS where omega-run
// cannot enforce anything.
var ErrUnsupported = errors.New("no sandbox is available on this operating system")

// ErrOOMKilled is wrapped by Wait's error when the kernel's OOM killer
// killed a process of the command's cgroup; the error says why: the
// group reached Process.Memory, or it stayed below it and the machine,
// or a cgroup above it, ran out of memory.
var ErrOOMKilled = errors.New("the OOM killer killed a process in the command's cgroup")

// Exit codes, as README.md's "Exit status" fixes them.
const (
	ExitLauncher      = 125
	ExitNotExecutable = 126
	ExitNotFound      = 127
)

// Error is a launcher failure with the exit code it maps to.
type Error struct {
	// Code is ExitLauncher, ExitNotExecutable or ExitNotFound.
	Code int
	// Err says what failed; Error and Unwrap are its.
	Err error
}

// Error is Err's message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns Err, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// checkDir is os.StartProcess's look at a command's Dir, which it skips
// for a command with a SysProcAttr (the init stage's): the child's chdir
// then fails as "fork/exec /proc/self/exe: no such file or directory",
// naming the binary, not the directory.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	if err == nil && !st.IsDir() {
		err = &os.PathError{Op: "stat", Path: dir, Err: syscall.ENOTDIR}
	}
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return &Error{Code: ExitLauncher, Err: &os.PathError{Op: "chdir", Path: dir, Err: pe.Err}}
	}
	return launcherErr(err)
}

func launcherErr(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: ExitLauncher, Err: err}
}

// Command returns an unstarted command that runs program confined by mode,
// with dataDir writable ("" means ~/.omega). Start it with Start.
func Command(program string, mode Mode, dataDir string, args ...string) (*exec.Cmd, error) {
	return CommandContext(context.Background(), program, mode, dataDir, args...)
}

// CommandContext is Command with a context that kills the process when
// done: the whole confined tree in sandbox mode (PID 1 of its pid
// namespace), the program alone in rx and rwx.
func CommandContext(ctx context.Context, program string, mode Mode, dataDir string, args ...string) (*exec.Cmd, error) {
	return Options{Mode: mode, DataDir: dataDir}.CommandContext(ctx, program, args...)
}

var errRWXHasNoProfile = errors.New("--mode rwx runs the program plainly: there is no profile to show")

// DisplayName is how a user interface names mode.
func DisplayName(mode Mode) string { return profiles.DisplayName(mode) }

// PromptConstraint is the system-prompt text that tells a model what mode
// enforces, with workspace as its working area.
func PromptConstraint(mode Mode, workspace string) (string, error) {
	return profiles.PromptConstraint(mode, workspace)
}

// Prompt is PromptConstraint for o as a launch would enforce it: its
// mode, plus the writable directories, read-only and hidden paths and
// network the options add. workspace "" is the data dir's workspace. The
// CLI's `omega-run prompt` prints it.
func (o Options) Prompt(workspace string) (string, error) {
	pol, err := o.Policy()
	if err != nil {
		return "", err
	}
	if workspace == "" {
		workspace = pol.Workspace()
	}
	if err := checkWorkspace(pol, workspace); err != nil {
		return "", err
	}
	return profiles.PolicyPrompt(pol, workspace)
}

// checkWorkspace refuses a workspace the program could not write: the
// text tells the model its writes there succeed. On Linux the sandbox's
// /tmp is its own, so the host's does not count.
func checkWorkspace(pol profiles.Policy, workspace string) error {
	if pol.Mode == profiles.ModeRWX {
		return nil
	}
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return fmt.Errorf("--workspace %s: %w", workspace, err)
	}
	root := pol.WritableRootOf(abs)
	if runtime.GOOS == "linux" {
		root = pol.ReachableWritable(abs)
	}
	if root == "" {
		return fmt.Errorf("--workspace %s: outside what the program may write in %s mode, where the text says its writes succeed (add --allow-write %s)", workspace, pol.Mode, workspace)
	}
	return nil
}
