//go:build !linux

package rlimits

// resourceNumber returns -1: Limit.Resource holds Linux numbers only, and
// Apply is not supported here.
func resourceNumber(string) int { return -1 }
