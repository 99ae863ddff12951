//go:build !unix

package main

// hostServiceEnv tells nothing where systemd cannot start omega-run.
func hostServiceEnv() serviceEnv {
	return serviceEnv{getenv: func(string) string { return "" }, fdOpen: func(int) bool { return false }}
}
