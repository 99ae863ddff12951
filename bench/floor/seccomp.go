//go:build linux && cgo && floor_seccomp

package main

import _ "github.com/seccomp/libseccomp-golang" // libseccomp.so, and seccomp_api_get() in its init
