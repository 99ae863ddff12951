package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// homeWritableWarning is said when a writable root holds the whole home
// directory (--allow-write ~, a data dir at
// ~, a home below /tmp in rx): then the files that run code
// at the user's next login or shell (~/.bashrc, ~/.profile, autostart
// entries) and credential stores that do not exist yet
// (~/.ssh/authorized_keys) can be written, and sandbox mode keeps only
// existing credential stores and project files read-only. It is the
// user's grant, so a warning, not a --fail-closed error. real maps a path
// to its real path (symlinks resolved), or returns it as it is.
func homeWritableWarning(pol profiles.Policy, real func(string) string) string {
	if pol.Mode == profiles.ModeRWX || pol.Home == "" {
		return ""
	}
	home := real(filepath.Clean(pol.Home))
	for _, root := range pol.Writable {
		if root == "/tmp" && pol.Mode == profiles.ModeSandbox {
			continue // the sandbox's /tmp is its own
		}
		r := real(filepath.Clean(root))
		if home == r || strings.HasPrefix(home, strings.TrimSuffix(r, "/")+"/") {
			return "the writable root " + root + " holds the whole home directory " + pol.Home + ": the program can change " +
				"what runs at your next login or shell (~/.bashrc, ~/.profile, ~/.config/autostart) and create " +
				"credential stores that do not exist yet (~/.ssh/authorized_keys); allow narrower directories"
		}
	}
	return ""
}

// ownDirWarnings are said when --allow-write names a directory that
// sandbox mode (with its mounts) replaces with its own, where the grant
// would otherwise not do what it says, silently: /tmp, the sandbox's own
// and writable already; /run itself, an empty tmpfs there (a directory
// below /run is brought back, writable); /dev/shm or anything in it,
// the sandbox's own (a tmpfs, gone with the sandbox: what --allow-write .
// started there meant to keep is lost); /dev or a directory in it, as
// /dev/shm (or missing there: /dev/net); and anything in a hidden path,
// which stays empty (moved are the stores the environment moved).
func ownDirWarnings(pol profiles.Policy, moved []string) []string {
	var out []string
	for _, w := range pol.AllowWrite {
		switch c := realPath(filepath.Clean(w)); {
		case filepath.Clean(w) == "/tmp":
			out = append(out, "--allow-write /tmp: in sandbox mode /tmp is the sandbox's own (kept in "+pol.PrivateTmp()+
				") and writable already; the host's /tmp stays out of reach (allow a directory in it, --allow-write /tmp/DIR, or use --mode rx)")
		case c == "/run" || c == "/var/run":
			out = append(out, "--allow-write "+w+": in sandbox mode /run is an empty tmpfs of the sandbox's own, and the grant "+
				"makes that writable, not the host's /run (allow a directory in it, --allow-write /run/DIR, or use --mode rx)")
		case c == "/run/user" || strings.HasPrefix(c, "/run/user/"):
			out = append(out, "--allow-write "+w+": it holds the user's service sockets (systemd --user, D-Bus, gpg-agent, "+
				"Wayland), which the sandbox otherwise hides: through them the program can start programs outside it")
		case profiles.Within(c, "/dev/shm"): // itself too: --allow-write . started there
			out = append(out, "--allow-write "+w+": in sandbox mode /dev/shm is the sandbox's own, writable already and gone when "+
				"it ends, so the grant reaches nothing of the host's (allow a directory outside /dev/shm, or use --mode rx)")
		case c == "/dev" || profiles.Within(c, "/dev") && isDir(c): // a device node is the host's, bound in or not
			out = append(out, "--allow-write "+w+": in sandbox mode /dev is the sandbox's own (a few device nodes, gone "+
				"when it ends), so the grant reaches nothing of the host's /dev (use --mode rx)")
		default:
			if h := hiddenHolder(pol, c, moved); h != "" {
				out = append(out, "--allow-write "+w+": sandbox mode hides "+h+" (empty and read-only inside), so the grant "+
					"reaches nothing there")
			}
		}
	}
	return out
}

// hiddenHolder is the credential store, --hide path or store the
// environment moved (moved: GNUPGHOME's, …) that holds the real path c,
// or "": hiding wins over a grant inside it.
func hiddenHolder(pol profiles.Policy, c string, moved []string) string {
	for _, h := range slices.Concat(pol.Hide, moved, homeStores(pol.Home)) {
		if profiles.Within(c, realPath(filepath.Clean(h))) {
			return h
		}
	}
	return ""
}

// realPath resolves symlinks in p, or returns p when it cannot.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// pathWritableWarning is said when a directory on the caller's PATH lies
// in the writable set (not the sandbox's own /tmp): the program can put a
// `git` or `ls` there that the user's shell runs later, outside the
// sandbox. The user's grant, so a warning; not repeated when the whole
// home is writable (homeWritableWarning says more). A relative entry
// (".", an empty one) counts where the launch runs, wd: a shell that
// searches it in the same project runs what the program left there.
// real maps a path to its real path.
func pathWritableWarning(pol profiles.Policy, path, wd string, real func(string) string) string {
	if pol.Mode == profiles.ModeRWX || homeWritableWarning(pol, real) != "" {
		return ""
	}
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		abs := d
		if !filepath.IsAbs(d) {
			if d == "" {
				d = "." // the empty entry is the current directory
			}
			if wd == "" {
				continue
			}
			abs = filepath.Join(wd, d)
		}
		if slices.Contains(dirs, d) {
			continue
		}
		if r := real(filepath.Clean(abs)); pol.ReachableWritable(r) != "" || pol.ReachableWritable(filepath.Clean(abs)) != "" {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	return "PATH directory " + strings.Join(dirs, ", ") + " is in the writable set: the program can add or replace commands " +
		"there that your shell runs later, outside the sandbox (take it out of PATH, or out of the writable set)"
}

// launchWorkdir is the program's working directory: --workdir, or the
// caller's.
func launchWorkdir(p *plan) string {
	if p.workdir != "" {
		return p.workdir
	}
	wd, _ := os.Getwd()
	return wd
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
