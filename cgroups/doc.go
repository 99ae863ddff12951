// Package cgroups puts the confined process tree into its own control group
// with memory, task-count and CPU limits (--memory, --pids, --cpus), on
// cgroup v2 and on v1/hybrid hosts, by reading and writing the cgroup file
// system directly (a handful of files per version: no cgroup library, whose
// dependencies cost omega-run megabytes of binary and of RSS in every
// process).
//
// Usage (parent side):
//
//	l, err := cgroups.ParseLimits("512M", "64", "1.5") // pure, every GOOS
//	g, err := cgroups.New("", l)                       // creates omega-run-<pid>-<rand>
//	defer g.Delete()                                   // kills leftovers, removes the group
//	if fd, ok := g.FD(); ok {                          // cgroup v2: place the child at clone
//		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
//	}
//	cmd.Start()
//	if _, ok := g.FD(); !ok {
//		err = g.Add(cmd.Process.Pid) // cgroup v1: place it before it is released
//	}
//	cmd.Wait()
//	oom, _ := g.OOMKilled()
//
// Where the group goes: on v2 next to the caller's own cgroup, as a child of
// its parent (a v2 cgroup that holds processes cannot hand controllers to
// children), so the parent's limits cover the group but the caller's own
// cgroup's do not; on v1 inside the caller's own cgroup of each needed
// hierarchy. Without a writable place (not root and no delegated subtree, a
// missing controller, a read-only mount) the error wraps ErrUnavailable, so
// the caller can turn it into a warning under best effort.
//
// Cgroup namespaces: on v2 CLONE_NEWCGROUP can go into the same clone as
// CLONE_INTO_CGROUP, and the new namespace is rooted at the group. On v1 the
// child is moved after clone, so a namespace made at clone is rooted at the
// caller's cgroup: unshare(CLONE_NEWCGROUP) in the child after it is placed.
//
// The limits cover every task in the group: omega-run's init stage (its
// memory and its threads) counts against --memory and --pids too.
package cgroups
