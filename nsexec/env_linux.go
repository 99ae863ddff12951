package nsexec

import (
	"os"
	"slices"
	"strconv"
	"strings"
)

// inheritedEnv is what the program inherits: nothing with --clear-env.
func inheritedEnv(s *Spec) []string {
	if s.ClearEnv {
		return nil
	}
	return os.Environ()
}

// programEnv is the inherited environment without the unset names, plus
// the spec's additions; among additions with the same key the last wins
// (omega-run puts OMEGA_SANDBOX last, so --setenv cannot fake it).
func programEnv(inherited, add, unset []string) []string {
	env := make([]string, 0, len(inherited)+len(add))
	for _, kv := range inherited {
		k, _, _ := strings.Cut(kv, "=")
		if hasKey(add, k) || slices.Contains(unset, k) {
			continue
		}
		env = append(env, kv)
	}
	for i, kv := range add {
		k, _, _ := strings.Cut(kv, "=")
		if !hasKey(add[i+1:], k) {
			env = append(env, kv)
		}
	}
	return env
}

func hasKey(env []string, key string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			return true
		}
	}
	return false
}

// setPIDVar points an existing variable name (LISTEN_PID: Spec.ListenPID,
// WATCHDOG_PID: Spec.WatchdogPID) in env at pid and reports whether there
// was one; it adds none.
func setPIDVar(env []string, name string, pid int) bool {
	found := false
	for i, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			env[i], found = name+"="+strconv.Itoa(pid), true
		}
	}
	return found
}
