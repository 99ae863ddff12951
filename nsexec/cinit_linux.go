//go:build linux && cgo && !omega_goinit

package nsexec

// The init stage runs in C (cinit.c) from a constructor, before the Go
// runtime starts, whenever this package is linked with cgo: the
// re-executed process never gets to Go. Build with -tags omega_goinit
// (or CGO_ENABLED=0) to use the Go init stage (Init) instead.

/*
#include <stdlib.h>
#include "cinit.h"

static const char *omega_init_arg(void) { return OMEGA_INIT_ARG; }
static const char *omega_pty_guard_arg(void) { return OMEGA_PTY_GUARD_ARG; }
static const char *omega_appended_hint(void) { return OMEGA_APPENDED_HINT; }
static const char *omega_no_namespaces_hint(void) { return OMEGA_NO_NAMESPACES_HINT; }
static const char *omega_no_go_ahead_hint(void) { return OMEGA_NO_GO_AHEAD_HINT; }
static unsigned long long omega_read_side(void) { return OMEGA_LL_READ_SIDE; }
static const char *omega_device_dir(void) { return OMEGA_LL_DEVICE_DIR; }
static const char *omega_capset_refused(void) { return OMEGA_CAPSET_REFUSED; }
static const char *omega_other_net_refused(void) { return OMEGA_OTHER_NET_REFUSED; }
#include <stdio.h>
#include "cinit_internal.h"

static const char *omega_text_reset(void) { return OMEGA_TEXT_RESET; }

static char *omega_term_safe_dup(const char *msg) {
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	if (!f)
		return NULL;
	omega_put_term_safe(f, msg);
	fclose(f);
	return out;
}

static char *omega_json_dup(const char *msg) {
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	if (!f)
		return NULL;
	omega_put_json(f, msg);
	fclose(f);
	return out;
}
*/
import "C"

import (
	"unsafe"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

// CInit tells whether the init stage of this binary is the C one.
const CInit = true

// cInitArg is the argv[1] the C constructor recognises.
func cInitArg() string { return C.GoString(C.omega_init_arg()) }

// cPtyGuardArg is the guardian's argv[1] the C constructors pass by.
func cPtyGuardArg() string { return C.GoString(C.omega_pty_guard_arg()) }

// cAppendedHint is the C init stage's AppendedFilesHint.
func cAppendedHint() string { return C.GoString(C.omega_appended_hint()) }

// cNoNamespacesHint is the C init stage's NoNamespacesHint.
func cNoNamespacesHint() string { return C.GoString(C.omega_no_namespaces_hint()) }

// cNoGoAheadHint is the C init stage's NoGoAheadHint.
func cNoGoAheadHint() string { return C.GoString(C.omega_no_go_ahead_hint()) }

// cErrstr is the C init stage's text for errno e.
func cErrstr(e int) string { return C.GoString(C.omega_errstr(C.int(e))) }

// cTermSafe is the C init stage's escaping of a log message.
func cTermSafe(msg string) string {
	cs := C.CString(msg)
	defer C.free(unsafe.Pointer(cs))
	out := C.omega_term_safe_dup(cs)
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out)
}

// cJSONString is the C init stage's JSON string of a log message,
// without its quotes.
func cJSONString(msg string) string {
	cs := C.CString(msg)
	defer C.free(unsafe.Pointer(cs))
	out := C.omega_json_dup(cs)
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out)
}

// cTextReset is the C init stage's termsafe.TextReset.
func cTextReset() string { return C.GoString(C.omega_text_reset()) }

// cReadSide is the C init stage's copy of landlock.ReadSide.
func cReadSide() uint64 { return uint64(C.omega_read_side()) }

// cCapsetRefused is the C init stage's CapsetRefused.
func cCapsetRefused() string { return C.GoString(C.omega_capset_refused()) }

// cOtherNetRefused is the C broker's OtherNetRefused.
func cOtherNetRefused() string { return C.GoString(C.omega_other_net_refused()) }

// cDeviceDir is the C init stage's copy of landlock.DeviceDirs.
func cDeviceDir() string { return C.GoString(C.omega_device_dir()) }

// cDescribe decodes a wire-format spec with the C decoder and returns its
// text dump ("" for a malformed spec).
func cDescribe(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	p := C.CBytes(b)
	defer C.free(p)
	out := C.omega_spec_describe((*C.uchar)(p), C.size_t(len(b)))
	if out == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out)
}

// cMountinfoLine reads one line of mountinfo with the C init stage's
// parser, and the mount's source; false for a line it cannot read.
func cMountinfoLine(line string) (m mountinfo.Mount, source string, ok bool) {
	cs := C.CString(line)
	defer C.free(unsafe.Pointer(cs))
	var c C.struct_omega_mountinfo
	if C.omega_mountinfo_line(cs, &c) < 0 {
		return m, "", false
	}
	m = mountinfo.Mount{ID: uint64(c.id), Dev: C.GoString(c.dev), Root: C.GoString(c.root), Point: C.GoString(c.point),
		Options: C.GoString(c.options), FSType: C.GoString(c.fstype), SuperOptions: C.GoString(c.super)}
	return m, C.GoString(c.source), true
}
