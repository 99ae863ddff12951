// cinit.h: what cinit.c shares with cinit_linux.go.
#ifndef OMEGA_CINIT_H
#define OMEGA_CINIT_H

#include <stddef.h>

// OMEGA_INIT_ARG is nsexec.InitArg (a Go test checks that they agree).
#define OMEGA_INIT_ARG "__omega_run_init__"

// omega_spec_describe decodes a wire-format spec the way the init stage
// does and returns a malloc'd text dump of it (NULL when it is
// malformed), for the test that compares the C and Go decoders.
char *omega_spec_describe(const unsigned char *buf, size_t len);

#endif
