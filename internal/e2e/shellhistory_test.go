//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostHistory is the line a person's host history ends with before a
// confined session: it must stay the last one (nothing planted after it).
const hostHistory = "echo host-line\n"

// historyWorld is u's world with a host ~/.bash_history and rc files in
// home (name → content), and the command of a confined interactive shell.
func historyWorld(t *testing.T, u user, rc map[string]string) (*world, func(mode string, shell ...string) func(context.Context) *exec.Cmd) {
	w := newWorld(t, u)
	writeFile(t, filepath.Join(w.home, ".bash_history"), hostHistory)
	for name, content := range rc {
		writeFile(t, filepath.Join(w.home, name), content)
	}
	chownTree(t, w.home, u)
	return w, func(mode string, shell ...string) func(context.Context) *exec.Cmd {
		return func(ctx context.Context) *exec.Cmd {
			return w.cmdOf(ctx, bin, append([]string{"--mode", mode, "--"}, shell...)...)
		}
	}
}

// TestShellHistoryKept: the commands typed in a confined bash session
// are kept in the sandbox's own history (the data dir), said once on the
// terminal, and read by the next confined session; the host's
// ~/.bash_history stays as it was, so a confined program cannot plant a
// line the user re-runs with Up+Enter there. Before, bash's write of
// ~/.bash_history at exit failed, silently, and the history was lost.
// `bash -c` gets nothing (the control).
func TestShellHistoryKept(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, shell := historyWorld(t, u, nil)
				explain := func(ctx context.Context) *exec.Cmd { return w.cmdOf(ctx, bin, "--mode", mode, "explain", "/bin/bash") }
				if out, _ := onNewPtyTyped(t, 24, 300, "", nil, explain, nil); !strings.Contains(out, "HISTFILE="+filepath.Join(w.dataDir, "history", "bash_history")) {
					t.Errorf("explain on a terminal does not list the session's HISTFILE:\n%s", out)
				}
				bash := shell(mode, "/bin/bash", "--norc", "--noprofile")
				out, ps := onNewPtyTyped(t, 24, 80, "echo typed-in-sandbox\nexit\n", nil, bash, nil)
				if !strings.Contains(out, "history is kept in") {
					t.Errorf("the first session did not say where its history is kept (exit %d):\n%s", shellStatus(ps), out)
				}
				if b, _ := os.ReadFile(filepath.Join(w.home, ".bash_history")); string(b) != hostHistory {
					t.Errorf("host ~/.bash_history is %q after, want it as it was", b)
				}
				out, ps = onNewPtyTyped(t, 24, 80, "history\nexit\n", nil, bash, nil)
				if !strings.Contains(out, "echo typed-in-sandbox") {
					t.Errorf("the next confined session's history lacks the first's command (exit %d):\n%s", shellStatus(ps), out)
				}
				if strings.Contains(out, "history is kept in") {
					t.Errorf("the second session said it again:\n%s", out)
				}
				if r := w.run("--mode", mode, "--", "/bin/bash", "-c", "echo \"[$HISTFILE]\""); strings.TrimSpace(r.stdout) != "[]" || strings.Contains(r.stderr, "history") {
					t.Errorf("bash -c got something for its history: %+v", r)
				}
			})
		}
	}
}

// TestShellHistoryZsh: zsh, whose history file is the rc's choice
// (SAVEHIST), keeps it in the sandbox's own too when the rc leaves
// HISTFILE unset or sets it only when unset (oh-my-zsh's way).
func TestShellHistoryZsh(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("no zsh")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, shell := historyWorld(t, u, map[string]string{".zshrc": "SAVEHIST=100 HISTSIZE=100\n[ -z \"$HISTFILE\" ] && HISTFILE=\"$HOME/.zsh_history\"\n"})
				zsh := shell(mode, "/usr/bin/zsh")
				onNewPtyTyped(t, 24, 80, "echo typed-in-zsh\nexit\n", nil, zsh, nil)
				if _, err := os.Stat(filepath.Join(w.home, ".zsh_history")); err == nil {
					t.Errorf("zsh wrote the host's ~/.zsh_history")
				}
				out, ps := onNewPtyTyped(t, 24, 80, "fc -l 1\nexit\n", nil, zsh, nil)
				if !strings.Contains(out, "echo typed-in-zsh") {
					t.Errorf("the next confined zsh session's history lacks the first's command (exit %d):\n%s", shellStatus(ps), out)
				}
			})
		}
	}
}

// TestShellHistoryRcSetsHistfile: an rc file that sets HISTFILE to the
// host's history wins over the sandbox's own, and the write there fails:
// the session says so on the terminal, naming the rc file, instead of
// losing the history silently; the host file stays as it was.
func TestShellHistoryRcSetsHistfile(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, shell := historyWorld(t, u, map[string]string{".bashrc": "HISTSIZE=1000\nexport HISTFILE=~/.bash_history\n"})
				out, ps := onNewPtyTyped(t, 24, 80, "echo typed\nexit\n", nil, shell(mode, "/bin/bash"), nil)
				if !strings.Contains(out, ".bashrc sets HISTFILE") {
					t.Errorf("an rc's HISTFILE outside the writable set lost the history unsaid (exit %d):\n%s", shellStatus(ps), out)
				}
				if b, _ := os.ReadFile(filepath.Join(w.home, ".bash_history")); string(b) != hostHistory {
					t.Errorf("host ~/.bash_history is %q after, want it as it was", b)
				}
			})
		}
	}
}

// TestShellHistoryFish: fish keeps its history in ~/.local/share/fish,
// whatever HISTFILE says; a confined fish session says on the terminal
// that its history is lost there (a stand-in named fish: the warning is
// omega-run's, before fish starts), not when that directory is writable.
func TestShellHistoryFish(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				fish := filepath.Join(w.home, "bin", "fish")
				mustMkdir(t, filepath.Join(w.home, ".local", "share", "fish"))
				mustMkdir(t, filepath.Dir(fish))
				writeExec(t, fish, "#!/bin/sh\nread line\n")
				chownTree(t, w.home, u)
				run := func(extra ...string) func(context.Context) *exec.Cmd {
					return func(ctx context.Context) *exec.Cmd {
						return w.cmdOf(ctx, bin, append(append([]string{"--mode", mode}, extra...), "--", fish)...)
					}
				}
				out, ps := onNewPtyTyped(t, 24, 80, "exit\n", nil, run(), nil)
				if !strings.Contains(out, "fish keeps its history in "+filepath.Join(w.home, ".local", "share", "fish")) {
					t.Errorf("a confined fish session lost its history unsaid (exit %d):\n%s", shellStatus(ps), out)
				}
				out, ps = onNewPtyTyped(t, 24, 80, "exit\n", nil, run("--allow-write", filepath.Join(w.home, ".local", "share", "fish")), nil)
				if strings.Contains(out, "fish keeps its history") {
					t.Errorf("warned with fish's data dir writable (exit %d):\n%s", shellStatus(ps), out)
				}
			})
		}
	}
}

// TestShellHistorySetenv: --setenv HISTFILE is the user's choice for
// the launch and stays; one the sandbox does not let the shell write
// says on the terminal that the history is lost, a writable one keeps
// the history there, unsaid.
func TestShellHistorySetenv(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, _ := historyWorld(t, u, nil)
				bash := func(histfile string) func(context.Context) *exec.Cmd {
					return func(ctx context.Context) *exec.Cmd {
						return w.cmdOf(ctx, bin, "--mode", mode, "--setenv", "HISTFILE="+histfile, "--", "/bin/bash", "--norc")
					}
				}
				out, ps := onNewPtyTyped(t, 24, 80, "echo typed\nexit\n", nil, bash(filepath.Join(w.home, ".bash_history")), nil)
				if !strings.Contains(out, "--setenv HISTFILE="+filepath.Join(w.home, ".bash_history")+", which the sandbox does not let the shell write") {
					t.Errorf("a --setenv HISTFILE outside the writable set lost the history unsaid (exit %d):\n%s", shellStatus(ps), out)
				}
				mine := filepath.Join(w.dataDir, "workspace", "mine")
				out, ps = onNewPtyTyped(t, 24, 80, "echo typed-mine\nexit\n", nil, bash(mine), nil)
				if b, _ := os.ReadFile(mine); strings.Contains(out, "history") || !strings.Contains(string(b), "echo typed-mine") {
					t.Errorf("a writable --setenv HISTFILE: file %q (exit %d):\n%s", b, shellStatus(ps), out)
				}
			})
		}
	}
}

// TestShellHistorySourcedHistfile: ~/.bashrc sources a file that sets
// HISTFILE to the host's history (dotfiles kept in pieces). Only the rc
// files themselves were read: the session said its history "is kept in"
// the sandbox's own, then read the host's (Up showed its last line) and
// lost its own at exit, unsaid. The sourced file is read too, and named.
func TestShellHistorySourcedHistfile(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, shell := historyWorld(t, u, map[string]string{
					".bashrc":          "[ -f ~/.bash_history_rc ] && . ~/.bash_history_rc\nsource \"$HOME/.missing_rc\"\n",
					".bash_history_rc": "HISTSIZE=1000\nHISTFILE=~/.bash_history\n",
				})
				out, ps := onNewPtyTyped(t, 24, 200, "echo typed\nexit\n", nil, shell(mode, "/bin/bash"), nil)
				if want := filepath.Join(w.home, ".bash_history_rc") + " sets HISTFILE (line 2)"; !strings.Contains(out, want) || strings.Contains(out, "history is kept in") {
					t.Errorf("a sourced file's HISTFILE outside the writable set (exit %d):\n%s\nwant %q, and no word of a history kept", shellStatus(ps), out, want)
				}
			})
		}
	}
}
