//go:build !linux

package sandbox

import "github.com/omega-run/omega-run/profiles"

// ownLikeDataDir is Linux's: elsewhere omega-run does not switch users.
func ownLikeDataDir(string) error { return nil }

// dataDirLinkCheck is Linux's, as --user is.
func dataDirLinkCheck(profiles.Policy, string) func(string) error { return nil }

// confirmWalked is Linux's, as --user is.
func confirmWalked(profiles.Policy, string, string) error { return nil }

// checkDataDirOwner is Linux's, as --user is.
func (p *plan) checkDataDirOwner(string) error { return nil }

// dataDirChecked is Linux's test hook.
var dataDirChecked = func() {}
