//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// jobs runs the job-control actions: a shell's part, and a program's.
func jobs(action string, args []string) (bool, error) {
	switch action {
	case "stop-self": // kill(0, SIGTSTP) as vi does on Ctrl-Z, then say "resumed"
		if err := unix.Kill(0, unix.SIGTSTP); err != nil {
			return true, err
		}
		fmt.Println("resumed")
		return true, nil
	case "stop-self-continued": // stop, and have another process continue this one alone
		helper := exec.Command("/bin/sh", "-c", "sleep 0.5; kill -CONT "+strconv.Itoa(os.Getpid()))
		if err := helper.Start(); err != nil {
			return true, err
		}
		if err := unix.Kill(os.Getpid(), unix.SIGTSTP); err != nil {
			return true, err
		}
		fmt.Println("resumed")
		return true, helper.Wait()
	case "job-shell": // PROGRAM ARGS...: run it as a foreground job of this session
		return true, jobShell(args, true, true, "")
	case "job-shell-restore": // PROGRAM ARGS...: as job-shell, and the terminal's settings from the start put back at each stop, as bash does
		return true, jobShell(args, true, true, "restore")
	case "job-shell-stty": // PROGRAM ARGS...: as job-shell, and stty -echoctl at each stop, as a user at the prompt
		return true, jobShell(args, true, true, "stty")
	case "job-bg": // PROGRAM ARGS...: the same as a background job (cmd &)
		return true, jobShell(args, false, true, "")
	case "job-noterm": // PROGRAM ARGS...: the same in a process group of its own, with no terminal
		return true, jobShell(args, false, false, "")
	case "job-setpgid": // PROGRAM ARGS...: in a process group of its own on this terminal, waited for without WUNTRACED (timeout(1), Python's process_group=0)
		return true, jobSetpgid(args)
	case "take-terminal": // PATH: create PATH, set TOSTOP, take the terminal's foreground, exit
		return true, takeTerminal(args[0])
	}
	return false, nil
}

// jobShell is what an interactive shell does with a job, on the terminal
// on fd 0 that is this session leader's: it runs the job in a process
// group of its own in the foreground and waits for it with WUNTRACED;
// it takes the terminal back after each wait, as shells do, and on each
// stop it prints "JOB STOPPED N" (and "TERMINAL LEFT RAW" when the job
// left the terminal without echo or lines) and continues the job (fg), at
// most three times; when the job does not stop or end within 10 s, it
// prints "JOB HUNG" and kills it.
func jobShell(args []string, fg, terminal bool, atStop string) error {
	shells, _ := unix.IoctlGetTermios(0, unix.TCGETS)
	proc, err := os.StartProcess(args[0], args, &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Foreground: fg, Ctty: 0},
	})
	if err != nil {
		return err
	}
	pid := proc.Pid
	// As a shell: the terminal comes back to it after each wait, whatever
	// the job left it to, before it says anything.
	signal.Ignore(unix.SIGTTOU)
	back := func() {
		if terminal {
			unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, unix.Getpgrp())
		}
	}
	timer := time.AfterFunc(10*time.Second, func() {
		fmt.Println("JOB HUNG")
		unix.Kill(-pid, unix.SIGKILL)
	})
	defer timer.Stop()
	for stops := 0; ; {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WUNTRACED, nil); err == unix.EINTR {
			continue
		} else if err != nil {
			return err
		}
		back()
		if !ws.Stopped() {
			fmt.Println("JOB EXITED", ws.ExitStatus())
			return nil
		}
		fmt.Println("JOB STOPPED", int(ws.StopSignal()))
		if tio, err := unix.IoctlGetTermios(0, unix.TCGETS); terminal && err == nil && tio.Lflag&(unix.ECHO|unix.ICANON) != unix.ECHO|unix.ICANON {
			fmt.Println("TERMINAL LEFT RAW") // a shell's prompt would be unusable
		}
		if atStop == "restore" && shells != nil {
			unix.IoctlSetTermios(0, unix.TCSETS, shells)
		}
		if tio, err := unix.IoctlGetTermios(0, unix.TCGETS); atStop == "stty" && err == nil {
			tio.Lflag &^= unix.ECHOCTL
			unix.IoctlSetTermios(0, unix.TCSETS, tio)
		}
		if stops++; stops == 3 {
			unix.Kill(-pid, unix.SIGKILL)
			continue
		}
		time.Sleep(100 * time.Millisecond)
		timer.Reset(10 * time.Second)
		if fg {
			unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, pid)
		}
		unix.Kill(-pid, unix.SIGCONT)
	}
}

// takeTerminal leaves the terminal on fd 0 to a process group omega-run
// is not in, with TOSTOP set, so that omega-run's writes to it after the
// run would stop it; PATH is made to have omega-run warn then.
func takeTerminal(path string) error {
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return err
	}
	tio, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		return err
	}
	tio.Lflag |= unix.TOSTOP
	if err := unix.IoctlSetTermios(0, unix.TCSETS, tio); err != nil {
		return err
	}
	signal.Ignore(unix.SIGTTOU)
	if err := unix.Setpgid(0, 0); err != nil {
		return err
	}
	return unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, unix.Getpid())
}

// jobSetpgid is what a non-job-control parent that moves its child into a
// process group of its own does (coreutils timeout, watchexec): the child
// is a background group of this session's terminal, and nobody waits for
// its stops. It prints "JOB EXITED N", or "JOB HUNG" after 10 s.
func jobSetpgid(args []string) error {
	proc, err := os.StartProcess(args[0], args, &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		return err
	}
	timer := time.AfterFunc(10*time.Second, func() {
		fmt.Println("JOB HUNG")
		unix.Kill(-proc.Pid, unix.SIGKILL)
	})
	defer timer.Stop()
	st, err := proc.Wait()
	if err != nil {
		return err
	}
	fmt.Println("JOB EXITED", st.ExitCode())
	return nil
}

// sigqueue sends sig to pid as sigqueue(3) does: si_code SI_QUEUE (-1),
// which the Go runtime does not take for a signal sent by a user.
func sigqueue(pid int, sig syscall.Signal) error {
	var info [128]byte // siginfo_t: signo, errno, code, then pid and uid
	binary.NativeEndian.PutUint32(info[0:], uint32(sig))
	binary.NativeEndian.PutUint32(info[8:], uint32(0xffffffff)) // SI_QUEUE
	binary.NativeEndian.PutUint32(info[16:], uint32(os.Getpid()))
	binary.NativeEndian.PutUint32(info[20:], uint32(os.Getuid()))
	_, _, errno := syscall.RawSyscall(syscall.SYS_RT_SIGQUEUEINFO, uintptr(pid), uintptr(sig), uintptr(unsafe.Pointer(&info[0])))
	if errno != 0 {
		return errno
	}
	return nil
}
