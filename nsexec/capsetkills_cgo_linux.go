//go:build linux && cgo

package nsexec

/*
#include "cinit.h"

static int omega_capset_killed(void) { return omega_capset_kills; }
*/
import "C"

// CapsetKills tells whether a seccomp filter around the omega-run CLI
// kills on capset (systemd's SystemCallFilter=~@privileged), found by
// its check before the Go runtime (cinit_filterkills.c). rx and sandbox
// mode drop the program's capabilities with it and would die of SIGSYS.
func CapsetKills() bool { return C.omega_capset_killed() != 0 }
