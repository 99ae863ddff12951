package main

import (
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sirupsen/logrus"
)

// printError writes omega-run's last line, "omega-run: msg", or a JSON
// object at level error when --log-format json asked for every line to
// be JSON.
func printError(line string, args []string) {
	if !jsonLines(args) {
		fmt.Fprintln(os.Stderr, terminalSafe(line))
		return
	}
	e := logrus.NewEntry(logrus.StandardLogger())
	e.Time, e.Level, e.Message = time.Now(), logrus.ErrorLevel, strings.TrimPrefix(line, "omega-run: ")
	b, err := (&logrus.JSONFormatter{}).Format(e)
	if err != nil {
		fmt.Fprintln(os.Stderr, line)
		return
	}
	os.Stderr.Write(b)
}

// jsonLines tells whether the log format is JSON. configLogrus decides
// once the command line parses; a usage error comes before it, so then
// the arguments and the environment are read here.
func jsonLines(args []string) bool {
	switch logrus.StandardLogger().Formatter.(type) {
	case *logrus.JSONFormatter:
		return true
	case lineFormatter:
		return false
	}
	format := os.Getenv("OMEGA_RUN_LOG_FORMAT")
	for i := 1; i < len(args) && args[i] != "--"; i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if name != "log-format" || !strings.HasPrefix(args[i], "-") {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		format = value
	}
	return format == "json"
}

// terminalSafe escapes what a terminal would act on: C0 and C1 control
// characters, DEL, and bytes that are not UTF-8 (a lone 0x9b is CSI to a
// terminal in 8-bit mode). Messages name paths a confined program chose
// (a git dir it made); raw, its escape sequences could erase or forge the
// warning about it, or write the user's clipboard. JSON escapes its own.
func terminalSafe(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unsafeRune(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError
}
