package sandbox

import (
	"runtime"
	"slices"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/profiles"
)

// workdirWritable tells whether the program may write in its working
// directory wd: a writable root holds it (as given, or its real path,
// as wd is) and no --read-only path (sandbox mode's) does. Linux's sandbox
// mode has its own /tmp, so the host's is not a root there, but started
// in /tmp itself the program starts in the sandbox's own, which it may
// write. /dev/shm is writable to every confined program on Linux
// (landlock.DeviceDirs), though not a root of the policy: in rx it is
// the host's; in sandbox mode it is the sandbox's own, and the program
// started in /dev/shm itself starts in the sandbox's own (nsexec's
// privateTree), below it in /, which it may not write. real resolves
// symlinks.
func workdirWritable(pol profiles.Policy, wd string, real func(string) string) bool {
	if pol.Mode == profiles.ModeRWX {
		return true
	}
	ownTmp := pol.Mode == profiles.ModeSandbox && runtime.GOOS == "linux"
	if ownTmp && wd == "/dev/shm" {
		return true
	}
	for _, ro := range pol.ReadOnly {
		if pol.Mode == profiles.ModeSandbox && (profiles.Within(wd, ro) || profiles.Within(wd, real(ro))) {
			return false
		}
	}
	writable := pol.Writable
	if runtime.GOOS == "linux" && !ownTmp {
		writable = append(slices.Clone(writable), landlock.DeviceDirs...)
	}
	for _, w := range writable {
		if w == "/tmp" && ownTmp && wd != "/tmp" {
			continue
		}
		if profiles.Within(wd, w) || profiles.Within(wd, real(w)) {
			return true
		}
	}
	return false
}

// workdirWarning is said at launch, to a terminal only, when the program
// cannot write in its working directory (cd ~/proj && omega-run -- touch
// x gives "Read-only file system" and nothing says why). An agent that
// runs in a read-only checkout on purpose, with stderr not a terminal,
// is not told on every command; nor is one started from home or above
// it (/, /home). given says the directory came from --workdir.
func workdirWarning(pol profiles.Policy, wd string, given bool, real func(string) string) string {
	if wd == "" || workdirWritable(pol, real(wd), real) { // by its real path, as explain judges it
		return ""
	}
	fix := workdirFix(pol, wd, given, real)
	if fix == "" {
		return ""
	}
	return "the working directory " + wd + " is outside the writable set: the program cannot write in it (add " + fix + " to let it)"
}

// workdirFix is the flag that makes the working directory writable ("."
// names it unless --workdir gave it), or "" for home and what holds it,
// where that would make home writable, for the kernel's own trees
// (kernelDirs), and for sandbox mode's /dev/shm, where it would change
// nothing.
func workdirFix(pol profiles.Policy, wd string, given bool, real func(string) string) string {
	switch {
	case pol.Home != "" && profiles.Within(real(pol.Home), real(wd)):
		return ""
	case slices.ContainsFunc(kernelDirs, func(k string) bool { return profiles.Within(real(wd), k) && !inDeviceDir(real(wd)) }):
		return ""
	case pol.Mode == profiles.ModeSandbox && runtime.GOOS == "linux" && inDeviceDir(real(wd)):
		return "" // no grant reaches the host's /dev/shm in sandbox mode (homewarn.go's warning says so)
	case given:
		return "--allow-write " + profiles.ShellWord(wd)
	}
	return "--allow-write ."
}

// kernelDirs hold the kernel's files, not a program's: a grant there
// (--allow-write . in /proc/self, /sys or /dev) lets no build write its
// output, and in sandbox mode reaches the sandbox's own /proc and /dev.
// /dev/shm, where programs do create files, is judged on its own.
var kernelDirs = []string{"/proc", "/sys", "/dev"}

// inDeviceDir tells whether dir is in one of landlock.DeviceDirs.
func inDeviceDir(dir string) bool {
	for _, d := range landlock.DeviceDirs {
		if profiles.Within(dir, d) {
			return true
		}
	}
	return false
}
