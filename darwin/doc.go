// Package darwin renders omega-run's policy as a Seatbelt (SBPL) profile and
// builds the sandbox-exec command that enforces it on macOS.
//
// Everything here is pure Go with no build tags, so the rendering, the
// argv and the golden files are tested on Linux CI as well. Host lookups
// (symlink resolution, the stat of sandbox-exec) are injected through
// Options, and only the caller running on macOS passes the real ones.
//
// # Paths are parameters, not profile text
//
// DESIGN.md shows the profile with paths spliced in, as
// (subpath "{data_dir}"). This package renders the same rules with every
// path that comes from the user or the machine (data dir, ~/.claude, home,
// each --allow-write) as a parameter instead:
//
//	(subpath (param "DATA_DIR"))      plus   -DDATA_DIR=/Users/me/.omega
//
// sandbox-exec hands the -D value to the profile as a string object; it is
// never parsed as SBPL. So a path holding `"`, `\`, `)`, `;` or a newline
// cannot close the string and add rules: there is no quoting rule of SBPL's
// (undocumented, TinyScheme-derived) string syntax that has to be exactly
// right for the policy to hold. The profile text depends only on the
// policy's shape (mode, network, number of writable roots), never on path
// bytes, and the tests check exactly that. Replacing each (param "X") with
// its quoted value gives the design's profile line for line (tested too).
// The one byte a path cannot carry is NUL, which no argv can hold; such a
// path is rejected with an error.
//
// The strings that are spliced as text are this package's own constants
// (/private/tmp, the device paths, the credential store names); they are
// checked against a conservative character set when rendering, so they
// need no escaping either.
//
// # Rule order
//
// In SBPL the last matching rule wins, so the profile goes from broad to
// narrow: allow everything, deny all writes and hard links, allow the
// writable roots and the devices every program writes, then (sandbox
// mode) deny the credential stores and --hide paths, deny writes to the
// directories in a writable root above a protected path (a rename is
// judged by the directory renamed, not by what it holds), keep signals to
// the program's own processes, then (--net none) deny the network.
//
// A rule naming an operation itself has also been seen to beat one naming
// it through a wildcard whatever their order. The tests evaluate each
// profile under both readings (sbpleval_test.go) and want the same
// decisions from each.
//
// # Operations outside file-write*
//
// file-write* is every file-write-… operation (data, create, unlink,
// mode, owner, setugid, flags, times, xattr, acl, finderinfo), not
// file-link (link(2)) nor file-clone (clonefile(2)). Seatbelt judges an
// access by the name it is made through, so a hard link is a second
// name that the rules for the first do not reach: links are denied but
// in the writable set, and links and clones of protected paths are
// denied with them. This takes file-link and file-clone to be judged by
// the file linked or cloned, which nothing documents and no Mac here
// has checked; were it the new name, the rules would refuse nothing the
// writes' rules do not already.
package darwin
