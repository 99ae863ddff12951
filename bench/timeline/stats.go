//go:build linux

package main

import (
	"math"
	"sort"
)

func med(xs []float64) float64 { return quantile(xs, 0.5) }

func iqr(xs []float64) float64 { return quantile(xs, 0.75) - quantile(xs, 0.25) }

// quantile interpolates linearly between the closest ranks; NaN for none.
func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	h := q * float64(len(s)-1)
	lo := math.Floor(h)
	return s[int(lo)] + (h-lo)*(s[int(math.Ceil(h))]-s[int(lo)])
}
