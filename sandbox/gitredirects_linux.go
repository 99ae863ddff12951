package sandbox

import (
	"path/filepath"
)

// redirect is a place a git config sends git to, and what it is.
type redirect struct{ path, what string }

// redirects holds what gitDir's configs send git to (gitRedirects:
// core.hooksPath, included configs, and what those include) inside the
// writable set: read-only where it exists. Where it does not yet, the
// program could make it: changes reports it after the run.
func (g *gitScan) redirects(gitDir, worktree string) []string {
	var out []string
	configs := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	for depth := 0; depth < 4 && len(configs) > 0; depth++ { // git's own limit is 10
		var next []string
		for _, c := range configs {
			if g.configs[c] || len(g.configs) >= maxGitConfigs {
				continue
			}
			g.configs[c] = true
			b, err := readRegular(c, false, 1<<20)
			if err != nil {
				continue
			}
			r := parseGitRedirects(string(b))
			// The hooks themselves, not their directory: a planted config
			// naming a project directory must not make it read-only.
			for _, h := range r.hooks {
				dir := gitPath(h, g.home, worktree)
				if real, err := filepath.EvalSymlinks(dir); err == nil && g.throughLink(dir, real) && g.writable(real) {
					// One warning for the directory, not one per hook.
					g.warnings = append(g.warnings, dir+", the hooks directory "+c+" names (core.hooksPath), is reached through a symlink: its hooks in "+real+" are kept read-only, but the program can re-point the link")
					dir = real
				}
				for _, name := range gitHookNames {
					out = g.hold(out, filepath.Join(dir, name), "a hook in the directory "+c+" names (core.hooksPath)")
				}
			}
			for _, inc := range r.includes {
				p := gitPath(inc, g.home, filepath.Dir(c))
				out = g.hold(out, p, "a config "+c+" includes")
				next = append(next, p)
			}
		}
		configs = next
	}
	return out
}

// hold adds the file p to out when it exists in the writable set, and
// records it when it does not exist yet. A directory is not held: a
// config naming one (include.path = ..) would make it read-only. A
// symlink is held where it points, with a warning, as a .git symlink is:
// the link itself can be re-pointed.
func (g *gitScan) hold(out []string, p, what string) []string {
	named, linked := p, false
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p, linked = real, g.throughLink(named, real)
	}
	switch {
	case !g.writable(p):
		return out // out of the program's reach
	case isDir(p):
		g.warnings = append(g.warnings, p+", "+what+", is a directory: it is not kept read-only, and what the program writes there git may run")
		return out
	case exists(p):
		if linked {
			g.warnings = append(g.warnings, named+", "+what+", is reached through a symlink: "+p+" is kept read-only, but the program can re-point the link")
		}
		return append(out, p)
	}
	g.unmade = append(g.unmade, redirect{p, what})
	return out
}

// throughLink says whether p, resolved to real, is reached through a
// symlink below its writable root, which the program could re-point; a
// symlink on the way to the root (/home -> /var/home) is the user's.
func (g *gitScan) throughLink(p, real string) bool { return real != g.canonical(p) }
