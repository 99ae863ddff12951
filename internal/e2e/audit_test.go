//go:build linux

package e2e

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The kernel audit interface (linux/audit.h) this test needs.
const (
	auditGet            = 1000
	auditSet            = 1001
	auditLandlockAccess = 1423 // AUDIT_LANDLOCK_ACCESS
	auditStatusEnabled  = 1    // audit_status.mask bit for .enabled
	auditGroupReadlog   = 1    // AUDIT_NLGRP_READLOG, as a bind(2) group bitmask
	auditStatusLen      = 11 * 4
)

// TestDenialAudited checks what README's "When something is denied" tells
// users: with --log-denials the Landlock domain of a confined program asks
// the kernel to log its denials after execve
// (LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON, ABI 7), so with audit enabled a
// write that rx mode denies is a LANDLOCK_ACCESS record naming the
// directory and the right. Without the flag nothing is recorded: the
// kernel advises against logging programs that may try what they are
// denied, and an agent would flood the audit log.
// Audit is switched on for the test and back to how it was after (two
// suites at once on one machine could switch it off under each other).
func TestDenialAudited(t *testing.T) {
	requireRoot(t)
	if abi, _, _ := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION); int(abi) < 7 {
		t.Skipf("Landlock ABI %d: audit logging came with ABI 7 (Linux 6.15)", int(abi))
	}
	enableAudit(t)
	records := listenAudit(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			want := `blockers=fs.make_reg path="` + w.outside + `"`
			r := w.sh("rx", `echo x > "$O/quiet"`)
			if r.code == 0 || w.exists(w.outside+"/quiet") {
				t.Fatalf("the write outside the writable set was not denied: %+v", r)
			}
			if got := records.await(want, 2*time.Second); got != "" {
				t.Fatalf("a denial was recorded without --log-denials: %s", got)
			}
			r = w.sh("rx", `echo x > "$O/audited"`, "--log-denials")
			if r.code == 0 || w.exists(w.outside+"/audited") {
				t.Fatalf("the write outside the writable set was not denied: %+v", r)
			}
			if got := records.await(want, 5*time.Second); got == "" {
				t.Fatalf("no LANDLOCK_ACCESS record with %s within 5 s", want)
			}
		})
	}
}

// enableAudit turns kernel audit on (it is off unless auditd or audit=1
// turned it on) and restores the previous state when the test ends.
func enableAudit(t *testing.T) {
	t.Helper()
	fd := auditSocket(t, 0)
	defer unix.Close(fd)
	was, err := auditEnabled(fd)
	if errors.Is(err, unix.EPERM) || errors.Is(err, unix.ECONNREFUSED) {
		// Audit belongs to the initial user namespace: a container's root
		// cannot reach it.
		t.Skipf("kernel audit is out of reach here: AUDIT_GET: %v", err)
	}
	if err != nil {
		t.Fatalf("AUDIT_GET: %v", err)
	}
	if was == 1 || was == 2 { // 2: locked on
		return
	}
	if err := setAuditEnabled(fd, 1); err != nil {
		t.Fatalf("AUDIT_SET enabled=1: %v", err)
	}
	t.Cleanup(func() {
		fd := auditSocket(t, 0)
		defer unix.Close(fd)
		if err := setAuditEnabled(fd, was); err != nil {
			t.Errorf("restoring audit enabled=%d: %v", was, err)
		}
	})
}

func auditSocket(t *testing.T, groups uint32) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_AUDIT)
	if err != nil {
		t.Fatalf("audit netlink socket: %v", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Groups: groups}); err != nil {
		unix.Close(fd)
		t.Fatalf("binding the audit socket (groups %#x): %v", groups, err)
	}
	return fd
}

func auditSend(fd int, typ uint16, payload []byte) error {
	msg := make([]byte, unix.NLMSG_HDRLEN, unix.NLMSG_HDRLEN+len(payload))
	binary.NativeEndian.PutUint32(msg[0:], uint32(unix.NLMSG_HDRLEN+len(payload)))
	binary.NativeEndian.PutUint16(msg[4:], typ)
	binary.NativeEndian.PutUint16(msg[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK)
	return unix.Sendto(fd, append(msg, payload...), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK})
}

// auditReply reads messages until one of type typ, or an error ack.
func auditReply(fd int, typ uint16) ([]byte, error) {
	buf := make([]byte, 8192)
	for range 16 {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return nil, err
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			if m.Header.Type == unix.NLMSG_ERROR && len(m.Data) >= 4 {
				if e := int32(binary.NativeEndian.Uint32(m.Data)); e != 0 {
					return nil, unix.Errno(-e)
				}
				if typ == unix.NLMSG_ERROR {
					return m.Data, nil
				}
			}
			if m.Header.Type == typ {
				return m.Data, nil
			}
		}
	}
	return nil, errors.New("no reply")
}

func auditEnabled(fd int) (uint32, error) {
	if err := auditSend(fd, auditGet, nil); err != nil {
		return 0, err
	}
	st, err := auditReply(fd, auditGet)
	if err != nil {
		return 0, err
	}
	if len(st) < 8 {
		return 0, errors.New("short audit_status")
	}
	return binary.NativeEndian.Uint32(st[4:]), nil
}

func setAuditEnabled(fd int, v uint32) error {
	st := make([]byte, auditStatusLen)
	binary.NativeEndian.PutUint32(st[0:], auditStatusEnabled)
	binary.NativeEndian.PutUint32(st[4:], v)
	if err := auditSend(fd, auditSet, st); err != nil {
		return err
	}
	_, err := auditReply(fd, unix.NLMSG_ERROR)
	return err
}

// auditRecords reads the kernel's audit multicast group.
type auditRecords struct{ fd int }

func listenAudit(t *testing.T) auditRecords {
	t.Helper()
	fd := auditSocket(t, auditGroupReadlog)
	t.Cleanup(func() { unix.Close(fd) })
	return auditRecords{fd}
}

// await returns the first LANDLOCK_ACCESS record containing want, or ""
// when none came before the timeout.
func (a auditRecords) await(want string, timeout time.Duration) string {
	tv := unix.NsecToTimeval(int64(200 * time.Millisecond))
	unix.SetsockoptTimeval(a.fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	buf := make([]byte, 1<<16)
	for end := time.Now().Add(timeout); time.Now().Before(end); {
		n, _, err := unix.Recvfrom(a.fd, buf, 0)
		if err != nil {
			continue
		}
		// One record per datagram. Its nlmsg_len cannot be trusted (the
		// kernel's audit records do not always count the header), so the
		// header is read by hand.
		if n <= unix.NLMSG_HDRLEN {
			continue
		}
		text := string(bytes.TrimRight(buf[unix.NLMSG_HDRLEN:n], "\x00"))
		if binary.NativeEndian.Uint16(buf[4:]) == auditLandlockAccess && strings.Contains(text, want) {
			return text
		}
	}
	return ""
}
