package profiles

import (
	"fmt"
	"strings"
)

// DisplayName is how a user interface names a mode.
func DisplayName(m Mode) string {
	switch m {
	case ModeSandbox:
		return "Sandboxed"
	case ModeRX:
		return "Read & execute"
	case ModeRWX:
		return "Full access"
	}
	return string(m)
}

// PromptConstraint is the text the Omega gateway puts into the model's
// system prompt for mode, so that the prompt layer describes exactly what
// the OS layer enforces. workspace is where the model is meant to work.
func PromptConstraint(m Mode, workspace string) (string, error) {
	return promptConstraint(m, workspace, false)
}

// projectFilesLine says which files stay read-only inside the writable
// set in sandbox mode (the git scan's), and the error git config then
// gives, which the model would otherwise take for a fault to work around.
func projectFilesLine(gitWritable bool) string {
	if gitWritable {
		return "Even where you can write, the files that run code later stay read-only where they exist: .envrc, .vscode/settings.json, tasks.json and launch.json, .mcp.json, .claude/settings.json and the like."
	}
	return "Even where you can write, the files that run code later stay read-only where they exist: .git/config and .git/hooks, .envrc, .vscode/settings.json, tasks.json and launch.json, .mcp.json, .claude/settings.json and the like; so git config (without --global) and git remote add fail with \"Device or resource busy\"."
}

func promptConstraint(m Mode, workspace string, gitWritable bool) (string, error) {
	var lines []string
	switch m {
	case ModeSandbox:
		lines = []string{
			"You are running in an OS-enforced sandbox (omega-run, mode: sandbox).",
			fmt.Sprintf("Work inside your workspace: %s.", workspace),
			"You can read and execute files anywhere, but writes succeed only in the workspace, the Omega data directory, ~/.claude, and /tmp and /dev/shm (both private to this sandbox).",
			"Credential stores such as ~/.ssh, ~/.aws and ~/.config/gh are hidden, host services under /run are out of reach, and processes outside the sandbox are invisible.",
			"A write anywhere else fails with \"Permission denied\" or \"Read-only file system\". Do not try to work around it; tell the user what you need instead.",
			projectFilesLine(gitWritable),
		}
	case ModeRX:
		lines = []string{
			"You are running with OS-enforced write restrictions (omega-run, mode: rx).",
			fmt.Sprintf("Work inside your workspace: %s.", workspace),
			"You can read and execute files anywhere on this machine, but writes succeed only in the workspace, the Omega data directory, /tmp, /dev/shm and ~/.claude.",
			"A write anywhere else fails with \"Permission denied\". Do not try to work around it; tell the user what you need instead.",
		}
	case ModeRWX:
		lines = []string{
			"You are running without OS restrictions (omega-run, mode: rwx): you have the user's full access to this machine.",
			fmt.Sprintf("Your workspace is %s; stay in it unless the user asks otherwise, and take care with anything outside it.", workspace),
		}
	default:
		_, err := ParseMode(string(m))
		return "", err
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// PolicyPrompt is PromptConstraint for p as a launch would enforce it:
// the writable directories the user added, the paths kept read-only or
// hidden, and no network, so that the prompt does not tell the model it
// cannot write where it can (or the reverse).
func PolicyPrompt(p Policy, workspace string) (string, error) {
	text, err := promptConstraint(p.Mode, workspace, p.WritableGitConfig)
	if err != nil || p.Mode == ModeRWX {
		return text, err
	}
	var lines []string
	if len(p.AllowWrite) > 0 {
		// The user's directories (the project an agent starts in) are
		// where the work is, not the workspace alone.
		work := fmt.Sprintf("Work inside your workspace: %s.", workspace)
		text = strings.Replace(text, work, fmt.Sprintf("Work inside the directories the user gave you (%s) or your workspace: %s.",
			strings.Join(p.AllowWrite, ", "), workspace), 1)
		lines = append(lines, "Writes also succeed in: "+strings.Join(p.AllowWrite, ", ")+".")
	}
	// rx refuses --read-only and --hide; the launch would not start.
	if len(p.ReadOnly) > 0 && p.Mode == ModeSandbox {
		lines = append(lines, "These stay read-only even where you can write around them: "+strings.Join(p.ReadOnly, ", ")+".")
	}
	if len(p.AllowSocket) > 0 && p.Mode == ModeSandbox {
		lines = append(lines, "These host sockets are in reach: "+strings.Join(p.AllowSocket, ", ")+".")
	}
	if len(p.Hide) > 0 && p.Mode == ModeSandbox {
		lines = append(lines, "These are hidden from you (empty): "+strings.Join(p.Hide, ", ")+".")
	}
	// Landlock refuses TCP in both modes, so a server of the program's own
	// on 127.0.0.1 fails too; rx has no network namespace besides.
	switch {
	case p.Net == NetNone && p.Mode == ModeSandbox:
		lines = append(lines, "There is no network access: connections to other machines fail, and TCP connections and listening sockets are refused, on loopback too.")
	case p.Net == NetNone:
		lines = append(lines, "TCP connections and listening sockets are refused, on loopback too.")
	}
	if len(lines) == 0 {
		return text, nil
	}
	return text + strings.Join(lines, "\n") + "\n", nil
}
