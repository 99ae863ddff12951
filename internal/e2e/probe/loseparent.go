//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// loseParent kills omega-run at the worst moment for its parent-death
// signal: "lose-parent PROGRAM ARGS..." runs PROGRAM (omega-run) under a
// seccomp user-notification supervisor that stops the first
// prctl(PR_SET_PDEATHSIG) made with changed ids (the init stage setting
// the signal again after --user cleared it), SIGKILLs PROGRAM, waits for
// its death, and only then lets the prctl through. As a subreaper it then
// waits for every orphan, so the caller sees what ran to completion.
func loseParent(args []string) error {
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_PRCTL, Jt: 0, Jf: 3},
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low word
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.PR_SET_PDEATHSIG, Jt: 0, Jf: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_USER_NOTIF},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	fd, cmd, err := startSupervised(filter, args)
	if err != nil {
		return err
	}
	pidfd, err := unix.PidfdOpen(cmd.Process.Pid, 0)
	if err != nil {
		return err
	}
	go killOnReset(fd, pidfd, cmd.Process)
	cmd.Wait()
	for { // the orphans come to this subreaper
		if _, err := unix.Wait4(-1, nil, 0, nil); err == unix.ECHILD {
			break
		}
	}
	return nil
}

// killOnReset is the supervisor's loop; it ends with the process.
func killOnReset(fd, pidfd int, launcher *os.Process) {
	killed := false
	for {
		var n seccompNotif
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n)))
		if errno != 0 {
			continue // EINTR, or ENOENT: the caller died meanwhile
		}
		if !killed && !rootIDs(int(n.pid)) {
			killed = true
			launcher.Signal(os.Kill)
			// Readable once it has exited: its children are reparented
			// by then, and their parent-death signals sent.
			unix.Poll([]unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}, -1)
			fmt.Fprintln(os.Stderr, "lose-parent: killed the launcher during the id switch")
		}
		resp := seccompNotifResp{id: n.id, flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
		unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}

// rootIDs tells whether process pid still has real uid 0 (or is gone).
func rootIDs(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return true
	}
	i := bytes.Index(b, []byte("\nUid:\t"))
	return i < 0 || bytes.HasPrefix(b[i+6:], []byte("0\t"))
}
