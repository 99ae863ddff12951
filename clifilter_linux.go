//go:build linux && cgo

package main

/*
// omega_cli marks the omega-run CLI for the nsexec constructors only the
// CLI runs (cinit_filterkills.c): a program that embeds the sandbox
// package keeps its own start-up.
const int omega_cli = 1;
*/
import "C"
