package profiles

// RWXError is a setting that asks for a restriction or a namespace in
// rwx mode, which runs the program with nothing in between: accepting it
// would mean ignoring it (and --net none would still be announced to the
// program as OMEGA_SANDBOX_NETWORK_DISABLED=1).
type RWXError struct {
	// Flag is the setting's flag name without dashes ("net").
	Flag string
	// Value is the value given ("none"), "" for a boolean flag.
	Value string
	// From says where the setting came from ("OMEGA_RUN_NET"), when the
	// caller knows and it was not the command line.
	From string
}

func (e *RWXError) Error() string {
	s := "--" + e.Flag
	if e.Value != "" {
		s += " " + e.Value
	}
	if e.From != "" {
		s += " (from " + e.From + ")"
	}
	modes := "sandbox or rx"
	if e.Flag == "hide" || e.Flag == "read-only" {
		modes = "sandbox" // rx refuses them too: no mount namespace
	}
	return s + ": --mode rwx applies no confinement, so nothing would enforce it (drop it, or use --mode " + modes + ")"
}

// checkRWX refuses what rwx cannot honour. Settings that only grant
// (--allow-write, --allow-socket, --writable-git-config) are accepted:
// rwx grants everything already.
func checkRWX(p Policy) error {
	if p.Mode != ModeRWX {
		return nil
	}
	first := func(l []string) string {
		if len(l) == 0 {
			return ""
		}
		return l[0]
	}
	for _, r := range []struct {
		on          bool
		flag, value string
	}{
		{p.Net == NetNone, "net", string(p.Net)},
		{p.Seccomp != SeccompNone, "seccomp", p.Seccomp},
		{p.FailClosed, "fail-closed", ""},
		{len(p.Hide) > 0, "hide", first(p.Hide)},
		{len(p.ReadOnly) > 0, "read-only", first(p.ReadOnly)},
	} {
		if r.on {
			return &RWXError{Flag: r.flag, Value: r.value}
		}
	}
	return nil
}
