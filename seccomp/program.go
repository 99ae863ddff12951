package seccomp

import "errors"

// ErrNotEnabled is returned by Compile in builds without libseccomp
// (CGO_ENABLED=0 or not Linux) for profiles other than the built-in ones
// (Precompiled).
var ErrNotEnabled = errors.New("not available in this build of omega-run (built without cgo and libseccomp)")

// Program is a compiled filter, ready for Install. It is plain data so
// that the parent can hand it to the re-executed init stage (nsexec
// puts the bytes in the spec; the C init installs them as they are).
type Program struct {
	// BPF is the raw struct sock_filter array in host byte order:
	// omega-run's guard followed by libseccomp's program.
	BPF []byte `json:"bpf"`
	// Flags are SECCOMP_FILTER_FLAG_* bits the profile asked for (LOG,
	// SPEC_ALLOW); Install adds TSYNC.
	Flags uint `json:"flags,omitempty"`
	// unguarded is the program PrlimitGuard put its check in front of,
	// for HostGuard, whose own holds the same check (not sent to the
	// init stage).
	unguarded *Program
}

// Len is the number of BPF instructions.
func (p *Program) Len() int { return len(p.BPF) / insnSize }
