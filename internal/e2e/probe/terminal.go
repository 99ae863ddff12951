//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// terminal runs the actions on the terminal of fd 0: the program's
// attacks on the caller's terminal, and a watcher from outside.
func terminal(action string, args []string) (bool, error) {
	switch action {
	case "set-winsize": // ROWS COLS: TIOCSWINSZ on fd 0 (the caller's foreground group gets SIGWINCH)
		rows, _ := strconv.Atoi(args[0])
		cols, _ := strconv.Atoi(args[1])
		return true, unix.IoctlSetWinsize(0, unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
	case "no-echo": // turn the terminal's echo off and leave it so
		tio, err := unix.IoctlGetTermios(0, unix.TCGETS)
		if err != nil {
			return true, err
		}
		tio.Lflag &^= unix.ECHO
		return true, unix.IoctlSetTermios(0, unix.TCSETS, tio)
	case "steal-line": // take the terminal's foreground, say "ready", print "GOT line" of what is typed within 3 s
		return true, stealLine()
	case "await-winch": // say "ready", then print "SIZE ROWS COLS" of fd 0's terminal after a SIGWINCH (5 s at most)
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, unix.SIGWINCH)
		fmt.Println("ready")
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			return true, fmt.Errorf("no SIGWINCH")
		}
		ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
		if err == nil {
			fmt.Println("SIZE", ws.Row, ws.Col)
		}
		return true, err
	case "ready-sleep": // say "ready", sleep a second in this process, say "resumed"
		fmt.Println("ready")
		time.Sleep(time.Second)
		fmt.Println("resumed")
		return true, nil
	case "count-winch": // PROGRAM ARGS...: run it in this process group, then print "WINCH N", the SIGWINCHs this group got
		return true, countWinch(args)
	}
	return false, nil
}

// stealLine is a program reading the user's next typed line (a sudo
// password): in a process group of its own made the terminal's
// foreground, with the job-control signals that would stop it ignored.
func stealLine() error {
	signal.Ignore(unix.SIGTTOU, unix.SIGTTIN, unix.SIGHUP)
	if err := unix.Setpgid(0, 0); err != nil {
		return err
	}
	if err := unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, unix.Getpid()); err != nil {
		return err
	}
	fmt.Println("ready")
	fds := []unix.PollFd{{Fd: 0, Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 3000); err != nil || n == 0 {
		fmt.Println("NOTHING TYPED")
		return nil
	}
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Printf("GOT %s\n", line)
	return nil
}

// countWinch runs args as a child in this process group (the terminal's
// foreground group, when this is a shell's job) and counts the SIGWINCHs
// the group gets meanwhile.
func countWinch(args []string) error {
	ch := make(chan os.Signal, 16)
	signal.Notify(ch, unix.SIGWINCH)
	c := exec.Command(args[0], args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	time.Sleep(200 * time.Millisecond) // delivery is asynchronous
	fmt.Println("WINCH", len(ch))
	if ee, ok := err.(*exec.ExitError); ok {
		fmt.Println("EXIT", ee.Sys().(syscall.WaitStatus).ExitStatus())
		return nil
	}
	return err
}
