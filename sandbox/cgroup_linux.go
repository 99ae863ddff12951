package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// cgroupRun is the program's cgroup while it runs.
type cgroupRun struct {
	g        *cgroups.Group
	ns       bool     // the init stage has namespaces (a cgroup namespace too)
	goAhead  *os.File // write end: the init stage waits for one byte (v1)
	goAheadR *os.File // its read end, passed to the init stage
}

// newCgroup creates the cgroup before the init stage exists. On cgroup
// v2 the init stage is cloned straight into it (and into a cgroup
// namespace rooted there); on v1 it waits until the parent has added it.
func newCgroup(p *plan, ns nsexec.Namespaces) (*cgroupRun, error) {
	if p.cgroup.IsZero() {
		return nil, nil
	}
	g, err := cgroups.New("", p.cgroup)
	if err != nil {
		return nil, cgroupErr(err)
	}
	return &cgroupRun{g: g, ns: ns.Enabled}, nil
}

// cgroupErr says what the error of cgroups.New or Probe means here.
func cgroupErr(err error) error {
	if outer := outerSandbox(); outer != "" {
		// Its writable set leaves out the cgroup file system: no
		// root or delegation here helps.
		return fmt.Errorf("--memory, --pids and --cpus: this omega-run runs inside another omega-run "+
			"(OMEGA_SANDBOX=%s), which keeps the cgroup file system unwritable: give them to the outer omega-run (%w)", outer, err)
	}
	if errors.Is(err, unix.EROFS) {
		return fmt.Errorf("%w: the cgroup file system is read-only here (a unit's ProtectControlGroups=, "+
			"a container's): drop that directive, or limit the unit or container itself (systemd's MemoryMax=, "+
			"TasksMax=, CPUQuota=; docker run --memory, --pids-limit, --cpus) in place of --memory, --pids and --cpus", err)
	}
	return fmt.Errorf("%w (--memory, --pids and --cpus need root or a delegated cgroup)", err)
}

// mark tells the spec to wait for the go-ahead (v1) before anything else.
func (c *cgroupRun) mark(spec *nsexec.Spec) {
	if c == nil {
		return
	}
	if _, ok := c.g.FD(); !ok {
		spec.GoAhead, spec.CgroupNS = true, c.ns
	}
}

// place sets up cmd before Start: clone into the group, or a go-ahead pipe.
func (c *cgroupRun) place(cmd *exec.Cmd, ns nsexec.Namespaces) error {
	if fd, ok := c.g.FD(); ok {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
		if ns.Enabled {
			cmd.SysProcAttr.Cloneflags |= unix.CLONE_NEWCGROUP
		}
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	c.goAhead, c.goAheadR = w, r
	return nil
}

// started adds the init stage to the group and lets it go on (v1).
func (c *cgroupRun) started(pid int) error {
	if c == nil || c.goAhead == nil {
		return nil
	}
	c.goAheadR.Close()
	defer c.goAhead.Close()
	if err := c.g.Add(pid); err != nil {
		return err
	}
	_, err := c.goAhead.Write([]byte{1})
	return err
}

// finish reports an OOM kill and removes the group.
func (c *cgroupRun) finish() {
	if c == nil {
		return
	}
	if why, oom := oomCause(c.g); oom {
		logrus.WithField("cgroup", c.g.Name()).Warnf("the OOM killer killed a process in the program's cgroup: %s", why)
	}
	if err := c.g.Delete(); err != nil {
		logrus.Warn(err.Error())
	}
}
