//go:build linux

package main

import "unsafe"

func uintptrOf(b *byte) uintptr { return uintptr(unsafe.Pointer(b)) }
