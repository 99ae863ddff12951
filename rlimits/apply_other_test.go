//go:build !linux

package rlimits

import (
	"errors"
	"testing"
)

func TestApplyUnsupported(t *testing.T) {
	if err := Apply(nil); err != nil {
		t.Errorf("Apply(nil) = %v, want nil", err)
	}
	ls, err := Parse([]string{"nofile=64"})
	if err != nil {
		t.Fatal(err)
	}
	if ls[0].Resource != -1 {
		t.Errorf("Resource = %d, want -1", ls[0].Resource)
	}
	if err := Apply(ls); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Apply = %v, want ErrUnsupported", err)
	}
}
