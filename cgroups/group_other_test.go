//go:build !linux

package cgroups

import (
	"errors"
	"testing"
)

func TestNewUnsupported(t *testing.T) {
	if _, err := New("", Limits{Pids: 4}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("New = %v, want ErrUnavailable", err)
	}
	if _, err := New("", Limits{Memory: 1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("New with bad limits = %v, want ErrInvalid", err)
	}
	if err := Probe(Limits{Pids: 4}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Probe = %v, want ErrUnavailable", err)
	}
}
