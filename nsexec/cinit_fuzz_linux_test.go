//go:build linux && cgo && !omega_goinit

package nsexec

import "testing"

// FuzzCDecoderAgrees: on any bytes the C init stage's decoder and the Go
// one agree: both refuse them, or both read the same fields. The C
// decoder runs in this process, so a read out of bounds would crash it.
func FuzzCDecoderAgrees(f *testing.F) {
	addWireSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if goText, cText := describe(b), cDescribe(b); goText != cText {
			t.Fatalf("decoders disagree\nGo:\n%s\nC:\n%s", goText, cText)
		}
	})
}
