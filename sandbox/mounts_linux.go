package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// socketEnv are variables that point programs at host services; they are
// dropped in sandbox mode unless --allow-socket names their socket.
var socketEnv = []string{"SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "GPG_AGENT_INFO", "DOCKER_HOST", "XDG_RUNTIME_DIR", "WAYLAND_DISPLAY", "DISPLAY"}

// resolverFiles are the /run files name resolution may need.
var resolverFiles = []string{"/run/systemd/resolve/stub-resolv.conf", "/run/systemd/resolve/resolv.conf", "/run/resolvconf/resolv.conf", "/run/nscd/socket"}

// maxProtected bounds the read-only binds of one launch: a program that
// leaves tens of thousands of .envrc files would otherwise make every
// later launch mount for minutes and then run out of mounts.
const maxProtected = 4096

// mountPlan works out, on the host, what the init stage mounts. canon
// holds the writable roots' canonical paths (canonicalRoots); nil is
// explain's look, which resolves and creates nothing. wd is the
// program's working directory, uid the program's.
func mountPlan(pol profiles.Policy, canon map[string]string, wd string, uid int) (*nsexec.MountPlan, *gitScan, []string, error) {
	plan := &nsexec.MountPlan{Writable: canonicalAll(pol.Writable, canon), TmpFrom: canon[pol.PrivateTmp()], FreshRun: true}
	if canon == nil {
		plan.TmpFrom = pol.PrivateTmp() // explain: as named
	}
	roWarnings := slices.Concat(hostTmp(plan), hostRun(), dropReadOnlyMounts(plan))
	aliases, unread := newMountAliases() // one read of mountinfo for masks, sockets and the kept workdir
	roWarnings = append(roWarnings, keepWorkdir(plan, wd, aliases)...)
	keepHostFiles(pol, plan)
	if unread != "" {
		roWarnings = append(roWarnings, unread)
	}
	warnings := append(roWarnings, masks(pol, canon, plan, wd, aliases)...)
	// What the caller named and only mounts carry out (a --hide of
	// nothing, which masks says, needs none).
	plan.Required = len(pol.ReadOnly) > 0 || slices.ContainsFunc(pol.Hide, func(h string) bool {
		return slices.Contains(plan.HideDirs, h) || slices.Contains(plan.HideFiles, h)
	})
	readOnly, scan, warns, err := protected(pol, canon, plan)
	if err != nil {
		return nil, nil, nil, err
	}
	warnings = append(warnings, warns...)
	warnings = append(warnings, bindReadOnly(pol, canon, plan, readOnly)...)
	// Masks inside a writable root are pinned too: renaming ~/.config
	// would carry ~/.config/gh out from under its mask, for the next run.
	pinned := slices.Clone(plan.ReadOnly)
	for _, h := range append(slices.Clone(plan.HideDirs), plan.HideFiles...) {
		if real, err := filepath.EvalSymlinks(h); err == nil {
			pinned = append(pinned, real)
		}
	}
	plan.Pin = pinDirs(pinned, plan.Writable)
	warnings = append(warnings, maskSockets(pol, plan, uid, aliases)...)
	if err := withinMountMax(plan); err != nil {
		return nil, nil, nil, err
	}
	return plan, scan, warnings, nil
}

// keepHostFiles lists the resolver files and allowed sockets that live
// under /run or /tmp, which the sandbox replaces: the init stage binds
// them back. Canonical paths: it places them without following symlinks
// (a program may leave some in the private /tmp).
func keepHostFiles(pol profiles.Policy, plan *nsexec.MountPlan) {
	keep := func(p string) {
		if real, err := filepath.EvalSymlinks(p); err == nil && underRunOrTmp(real) && !slices.Contains(plan.Keep, real) {
			plan.Keep = append(plan.Keep, real)
		}
	}
	for _, f := range resolverFiles {
		keep(f)
	}
	keep("/etc/resolv.conf")
	for _, s := range pol.AllowSocket {
		keep(s)
	}
	// A writable root below /run (a unit's RuntimeDirectory=) comes back
	// too; the init stage then makes it writable (nsexec.RunWritable).
	for _, w := range plan.Writable {
		if nsexec.RunWritable(w) && !slices.Contains(plan.Keep, w) {
			plan.Keep = append(plan.Keep, w)
		}
	}
	// Shortest first: a kept path inside another (a data dir in the
	// unit's runtime dir) is bound after it, not covered by it.
	slices.SortStableFunc(plan.Keep, func(a, b string) int { return len(a) - len(b) })
}

// protected lists what must stay read-only although it may lie in the
// writable set: --read-only paths, files that run code later (the git
// scan), config files and the omega-run binary itself.
func protected(pol profiles.Policy, canon map[string]string, plan *nsexec.MountPlan) ([]string, *gitScan, []string, error) {
	var warnings []string
	later, scan := runsLater(pol, canon, append(slices.Clone(pol.Writable), plan.Writable...), plan.TmpFrom != "")
	later = uniq(later)
	// What the scan may not read is held read-only whole: the program can
	// neither read it nor change its mode back to write what is below.
	if len(later)+len(scan.denied) > maxProtected {
		if err := scan.unreadableError(); err != nil {
			return nil, nil, nil, err
		}
	}
	warnings = append(warnings, capped(scan.deniedWarnings(), unreadableMore)...)
	later = append(later, scan.denied...)
	if len(later) > maxProtected {
		root, n := countIn(later, plan.Writable)
		return nil, nil, nil, fmt.Errorf("%d files below the writable set run code later (.envrc, .git/config, …), %d of them below %s: more than the %d omega-run keeps read-only in one launch; a program may have left them: remove them, or use --writable-git-config where they are git's",
			len(later), n, root, maxProtected)
	}
	scan.makeHooks() // only now: a launch refused above makes none
	// The program's to multiply (a symlinked .git in each of thousands of
	// directories): named up to maxReported, then counted, those true
	// only with the mounts apart, as the fallback drops them.
	kept, rest := splitMountsOnly(scan.warnings)
	warnings = append(warnings, capped(kept, keptLinksMore)...)
	warnings = append(warnings, capped(rest, "warnings like these about the writable set")...)
	readOnly := append(slices.Clone(pol.ReadOnly), later...)
	// Config files the program can reach decide its next launch, by
	// whatever path the caller named them.
	for _, c := range append(pol.ConfigFiles(), pol.Config) {
		if c == "" || !reachable(pol, plan, c) {
			continue
		}
		if _, linked := linkedInRoot(pol, canon, c); linked {
			return nil, nil, nil, fmt.Errorf("%s %s is reached through a symlink inside the writable %s, which a program could point at a file of its own for the next launch: name the file by its real path", pol.ConfigKind(c), c, pol.ReachableWritable(c))
		}
		readOnly = append(readOnly, c)
	}
	if self, err := os.Executable(); err == nil && reachable(pol, plan, self) {
		// The program could otherwise rewrite the launcher that runs it
		// next time, outside any sandbox.
		readOnly = append(readOnly, self)
		warnings = append(warnings, "the omega-run binary "+self+" lies in a writable directory"+selfReadOnlyWords+" outside the writable set")
	}
	return readOnly, scan, warnings, nil
}

// bindReadOnly puts into plan.ReadOnly the canonical path of each entry
// of readOnly that a bind must protect, once each.
func bindReadOnly(pol profiles.Policy, canon map[string]string, plan *nsexec.MountPlan, readOnly []string) []string {
	var warnings []string
	bound := map[string]bool{}
	for _, p := range readOnly {
		if slices.ContainsFunc(plan.HideDirs, func(h string) bool { return profiles.Within(p, h) }) {
			continue // out of sight, read-only and pinned by its mask (a repository in ~/.password-store)
		}
		real, warn := protectable(pol, canon, p)
		if warn != "" {
			warnings = append(warnings, warn)
		}
		// A link out of the writable set (.envrc -> ~/.ssh/id_rsa) needs
		// no bind: what it points to is read-only, or hidden, anyway.
		if real == "" || !inRoots(real, plan.Writable, plan.TmpFrom != "") || bound[real] {
			continue
		}
		bound[real] = true
		if st, err := os.Lstat(real); err == nil && st.Mode().IsRegular() && nlink(st) > 1 {
			warnings = append(warnings, fmt.Sprintf("%s has %d hard links: through one made in the writable set, a program can change it"+hardLinkWords+" (check: find / -samefile %s)", real, nlink(st), real))
		}
		plan.ReadOnly = append(plan.ReadOnly, real)
	}
	return warnings
}

// masks fills the plan's HideDirs and HideFiles: credential stores and
// --hide (maskSockets adds the host sockets). It warns about a --hide that is not there, and
// about a store reached through a symlink inside a writable root (the
// program could replace the link, and the store would be in sight at
// its real path next time).
func masks(pol profiles.Policy, canon map[string]string, plan *nsexec.MountPlan, wd string, aliases *mountAliases) []string {
	var warnings []string
	stores := hidden(pol, wd)
	lists := listings(stores)
	for _, h := range stores {
		if lists.absent(h) && !slices.Contains(pol.Hide, h) {
			continue // as a failing stat below
		}
		st, err := os.Stat(h)
		// Where a host bind mount shows it at another path too
		// (/home a bind of /data/home), that path is masked as well
		// (TestStoreBindAlias).
		var also []string
		if err == nil {
			if real, rerr := filepath.EvalSymlinks(h); rerr == nil {
				also = aliases.of(real, st.Sys().(*syscall.Stat_t))
			}
		}
		switch {
		case err != nil && slices.Contains(pol.Hide, h):
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			warnings = append(warnings, "--hide "+h+": "+err.Error()+", nothing to hide (if it appears during the run, it is not hidden)")
			continue
		case err != nil:
			continue
		case st.IsDir():
			plan.HideDirs = append(plan.HideDirs, append([]string{h}, also...)...)
		default:
			plan.HideFiles = append(plan.HideFiles, append([]string{h}, also...)...)
		}
		if real, linked := linkedInRoot(pol, canon, h); linked {
			warnings = append(warnings, h+hiddenLinkWords+pol.ReachableWritable(h)+" leads to it: the program could replace the link, and "+real+" would be in sight next time (give --hide "+real+")")
		}
	}
	return warnings
}

// uniq drops repeated paths, keeping the first of each (in linear time:
// a program may have planted tens of thousands).
func uniq(paths []string) []string {
	seen := make(map[string]bool, len(paths))
	return slices.DeleteFunc(paths, func(p string) bool {
		dup := seen[p]
		seen[p] = true
		return dup
	})
}

// countIn is the root holding most of paths, and how many.
func countIn(paths, roots []string) (string, int) {
	best, most := "", 0
	for _, r := range roots {
		n := 0
		for _, p := range paths {
			if profiles.Within(p, r) {
				n++
			}
		}
		if n > most {
			best, most = r, n
		}
	}
	return best, most
}

// reachable says whether the program can write p: a writable root holds
// it as named or as resolved.
func reachable(pol profiles.Policy, plan *nsexec.MountPlan, p string) bool {
	if pol.ReachableWritable(p) != "" {
		return true
	}
	real, err := filepath.EvalSymlinks(p)
	return err == nil && inRoots(real, plan.Writable, plan.TmpFrom != "")
}

// inRoots says whether the canonical path real lies in one of the
// canonical roots the program sees: the host's /tmp is one only where
// the sandbox has no private /tmp.
func inRoots(real string, roots []string, privateTmp bool) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return (r != "/tmp" || !privateTmp) && profiles.Within(real, r) })
}

// protectable returns p's canonical path for a read-only bind, and a
// warning when a symlink inside its writable root is on the way: a bind
// pins what the link points to, not the link, which the program can
// replace.
func protectable(pol profiles.Policy, canon map[string]string, p string) (string, string) {
	real, linked := linkedInRoot(pol, canon, p)
	if linked {
		return real, p + " cannot be kept read-only: a symlink inside the writable " + pol.ReachableWritable(p) + " leads to it, and the program can replace the link (replace the link with what it points to)"
	}
	return real, ""
}

// linkedInRoot returns p resolved, and whether a symlink between p's
// writable root and p is on the way ("" when p is gone).
func linkedInRoot(pol profiles.Policy, canon map[string]string, p string) (string, bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	root := pol.ReachableWritable(p)
	croot, ok := canon[root]
	if !ok || root == "" {
		return real, false
	}
	rel, _ := filepath.Rel(root, p)
	crel, err := filepath.Rel(croot, real)
	return real, err != nil || crel != rel
}

// hidden lists the credential stores under home and under the account's
// home where $HOME names another (accountHome), those the user's
// environment moved elsewhere (GNUPGHOME, XDG_CONFIG_HOME/gh, …), the
// other agents' homes (agentHomes), and every --hide.
func hidden(pol profiles.Policy, wd string) []string {
	acct := accountHome(pol.Home)
	var acctStores []string
	if acct != "" {
		acctStores = homeStores(acct)
	}
	return uniq(slices.Concat(homeStores(pol.Home), acctStores, envHidden(pol, wd), agentHomes(pol, wd, acct), pol.Hide))
}

func underRunOrTmp(p string) bool {
	return profiles.Within(p, "/run") || profiles.Within(p, "/var/run") || profiles.Within(p, "/tmp")
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// droppedEnv are the socket variables to remove: every one whose value
// does not name an --allow-socket path.
func droppedEnv(pol profiles.Policy) []string {
	var out []string
	for _, k := range socketEnv {
		v, ok := os.LookupEnv(k)
		if !ok {
			continue
		}
		allowed := slices.ContainsFunc(pol.AllowSocket, func(s string) bool { return strings.Contains(v, s) })
		if !allowed {
			out = append(out, k)
		}
	}
	return out
}

// notHidden says exactly what the sandbox cannot hide or keep read-only
// without a mount namespace. What the mounts around omega-run already
// hold is not named: inside an outer omega-run sandbox (an agent starting
// its tools with omega-run) its masks and read-only binds stay in place
// for the program, which runs in the same mount namespace.
func notHidden(plan *nsexec.MountPlan) string {
	open := nsexec.MountPlan{
		ReadOnly:  slices.DeleteFunc(slices.Clone(plan.ReadOnly), onReadOnlyMount),
		HideDirs:  slices.DeleteFunc(slices.Clone(plan.HideDirs), maskedHere),
		HideFiles: slices.DeleteFunc(slices.Clone(plan.HideFiles), maskedHere),
	}
	where := "the host's"
	if insideOuterMounts() {
		where = "the outer sandbox's"
	}
	return "without namespaces /run and /tmp stay " + where + open.Unprotected()
}
