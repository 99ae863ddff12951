package sandbox

import (
	"bytes"
	"slices"
	"strings"
)

// notifyKeys are the sd_notify(3) assignments the relay passes on: the
// service's state and its watchdog. Left out: MAINPID= (from a root
// sender systemd takes any pid, which it then signals on stop),
// NOTIFYACCESS=, the fd store, barriers and every fd.
var notifyKeys = []string{"READY", "RELOADING", "STOPPING", "STATUS", "ERRNO", "BUSERROR",
	"EXIT_STATUS", "MONOTONIC_USEC", "WATCHDOG", "WATCHDOG_USEC", "EXTEND_TIMEOUT_USEC"}

// filterNotify keeps the lines of msg that notifyKeys name; nil when none
// remain. Lines end at \n or \r, as systemd splits them; a message with a
// NUL is dropped whole, as systemd drops it.
func filterNotify(msg []byte) []byte {
	if bytes.IndexByte(msg, 0) >= 0 {
		return nil
	}
	var out [][]byte
	for _, line := range bytes.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }) {
		key, _, ok := strings.Cut(string(line), "=")
		if ok && slices.Contains(notifyKeys, key) {
			out = append(out, line)
		}
	}
	if out == nil {
		return nil
	}
	return bytes.Join(out, []byte("\n"))
}
