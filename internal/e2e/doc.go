// Package e2e drives the built omega-run binary the way users do, as root
// and as an unprivileged user, and checks every outcome from outside the
// sandbox. Its tests are Linux-only and need root.
package e2e
