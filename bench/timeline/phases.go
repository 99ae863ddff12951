//go:build linux

package main

import "strings"

// marker finds a time in one run; ok is false when it is missing.
type marker struct {
	label string
	find  func(evs []event, r roles) (float64, bool)
}

func first(role func(roles) string, name, argsHas string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		for _, e := range evs {
			if e.comm == role(r) && e.name == name && strings.Contains(e.args, argsHas) {
				return e.ts, true
			}
		}
		return 0, false
	}
}

func last(role func(roles) string, names []string, argsHas string, end bool) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.comm == role(r) && contains(names, e.name) && strings.Contains(e.args, argsHas) {
				t, ok = e.ts, true
				if end && e.dur > 0 {
					t += e.dur
				}
			}
		}
		return t, ok
	}
}

// execOf is the program's execve: the last one before the program's
// first exit_group (perf shows it under the old comm, the new one or
// ":PID").
func execOf(prog string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.name == "exit_group" && e.comm == prog {
				break
			}
			if e.name == "execve" && e.ts > 0 {
				t, ok = e.ts, true
			}
		}
		return t, ok
	}
}

// exitOf is the last exit_group of a comm: probe children (the pidfd
// check of os/exec) exit earlier under the same comm.
func exitOf(comm string, role func(roles) string) func([]event, roles) (float64, bool) {
	return func(evs []event, r roles) (float64, bool) {
		t, ok := 0.0, false
		for _, e := range evs {
			if e.name == "exit_group" && (comm == "" || e.comm == comm) && (role == nil || e.comm == role(r)) {
				t, ok = e.ts, true
			}
		}
		return t, ok
	}
}

var (
	parentPID = func(r roles) string { return r.parent }
	initPID   = func(r roles) string { return r.init }
)

// phases are the markers of mode's start-up, in order.
func phases(mode, prog string) []marker {
	switch mode {
	case "sandbox":
		return sandboxPhases(prog)
	case "sandbox-early":
		return earlyPhases(prog)
	case "rx":
		return rxPhases(prog)
	case "sandbox-c":
		return cPhases(prog)
	default: // rwx
		return rwxPhases(prog)
	}
}

var startMarker = marker{"start", func([]event, roles) (float64, bool) { return 0, true }}

// sandboxEnd is how every sandbox layout ends: the program, PID 1, the
// parent.
func sandboxEnd(prog string) []marker {
	return []marker{
		{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
		{"PID 1 reaps the program and exits", exitOf("", initPID)},
		{"pid/mount namespace teardown, parent wakes up and exits", exitOf("", parentPID)},
	}
}

// sandboxPhases are the Go init stage's, started by the parent's clone.
func sandboxPhases(prog string) []marker {
	return append([]marker{
		startMarker,
		{"parent: exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
		{"parent: rest of package init, main, CLI, policy, data dirs, mount plan", first(parentPID, "landlock_create_ruleset", "")},
		{"parent: Landlock rules and warnings, seccomp program, spec into memfd", last(parentPID, []string{"memfd_create"}, "", false)},
		{"parent: os/exec start (pipes, pidfd probe, threads) up to clone", first(parentPID, "clone", "NEWUSER")},
		{"clone(NEWUSER|NEWNS|NEWPID|…), uid/gid maps, child setup up to execve", first(initPID, "execve", "")},
		{"init stage: execve, ld.so, Go runtime start, package init up to libseccomp-golang", first(initPID, "seccomp", "")},
		{"init stage: rest of package init, read spec", first(initPID, "mount", "")},
		{"init stage: mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
		{"init stage: drop capabilities, no_new_privs, Landlock", first(initPID, "seccomp", "TSYNC, uargs")},
		{"init stage: seccomp install, signal.Notify, pidfd probe, up to the program's clone", last(initPID, []string{"clone", "clone3"}, "VFORK", false)},
		{"fork of the program up to its execve", execOf(prog)},
	}, sandboxEnd(prog)...)
}

// earlyPhases are the C init stage's, started early by the constructor.
func earlyPhases(prog string) []marker {
	// The CLI's constructor forks a helper that clones the init stage
	// before the Go runtime starts (nsexec/cinit_early.c); the init
	// stage then waits for the spec on a pipe, and its first mount
	// follows the spec's arrival.
	return append([]marker{
		startMarker,
		{"constructor: fork of the early-start helper, up to its clone of the init stage", first(parentPID, "clone", "NEWUSER")},
		{"parent: Go runtime start, package init up to libseccomp-golang (init stage: namespaces, id maps, waiting)", first(parentPID, "seccomp", "")},
		{"parent: rest of package init, main, CLI, policy, data dirs", first(parentPID, "landlock_create_ruleset", "")},
		{"parent: mount plan, Landlock rules, warnings, spec sent; init stage: spec read and decoded", first(initPID, "mount", "")},
		{"init stage (C): mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
		{"init stage (C): drop capabilities, no_new_privs, Landlock", first(initPID, "landlock_restrict_self", "")},
		{"init stage (C): fork of the program, its seccomp install, up to its execve", execOf(prog)},
	}, sandboxEnd(prog)...)
}

// rxPhases are rx's: one process, Landlock and seccomp, execve in place.
func rxPhases(prog string) []marker {
	return []marker{
		startMarker,
		{"exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
		{"rest of package init, main, CLI, policy, data dirs", first(parentPID, "landlock_create_ruleset", "")},
		{"Landlock (ABI query, rules, warnings, restrict_self)", first(parentPID, "seccomp", "TSYNC, uargs")},
		{"seccomp install, close_range, up to execve", execOf(prog)},
		{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
	}
}

// cPhases are the C init stage's, started by the parent's clone.
func cPhases(prog string) []marker {
	// The init stage in C (nsexec/cinit.c): no Go runtime, no
	// libseccomp probe; its first marker is the first mount.
	return append([]marker{
		startMarker,
		{"parent: exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
		{"parent: rest of package init, main, CLI, policy, data dirs, mount plan", first(parentPID, "landlock_create_ruleset", "")},
		{"parent: Landlock rules and warnings, seccomp program, spec into memfd", last(parentPID, []string{"memfd_create"}, "", false)},
		{"parent: os/exec start (pipes, pidfd probe, threads) up to clone", first(parentPID, "clone", "NEWUSER")},
		{"clone(NEWUSER|NEWNS|NEWPID|…), uid/gid maps, child setup up to execve", first(initPID, "execve", "")},
		{"init stage (C): execve, ld.so, constructor, read spec", first(initPID, "mount", "")},
		{"init stage (C): mounts", last(initPID, []string{"mount", "mount_setattr"}, "", true)},
		{"init stage (C): drop capabilities, Landlock, no_new_privs", first(initPID, "seccomp", "TSYNC, uargs")},
		{"init stage (C): seccomp install, rlimits, up to the program's fork", last(initPID, []string{"clone", "clone3"}, "", false)},
		{"fork of the program up to its execve", execOf(prog)},
	}, sandboxEnd(prog)...)
}

// rwxPhases are rwx's: the CLI, then execve.
func rwxPhases(prog string) []marker {
	return []marker{
		startMarker,
		{"exec, ld.so (libc, libseccomp), Go runtime start, package init up to libseccomp-golang", first(parentPID, "seccomp", "")},
		{"rest of package init, main, CLI, up to execve", execOf(prog)},
		{"the program (/bin/true: execve, ld.so, exit)", exitOf(prog, nil)},
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
