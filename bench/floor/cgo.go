//go:build linux && cgo && floor_cgo

package main

import _ "runtime/cgo" // dynamic linking against libc; threads via pthread_create
