package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/sandbox"
	"github.com/sirupsen/logrus"
)

// printError writes omega-run's last line, "omega-run: msg", or a JSON
// object at level error when --log-format json asked for every line to
// be JSON.
func printError(line string, args []string) {
	if !jsonLines(args) {
		fmt.Fprintln(sandbox.Stderr, termsafe.String(line))
		return
	}
	e := logrus.NewEntry(logrus.StandardLogger())
	e.Time, e.Level, e.Message = time.Now(), logrus.ErrorLevel, strings.TrimPrefix(line, "omega-run: ")
	b, err := (&logrus.JSONFormatter{}).Format(e)
	if err != nil {
		fmt.Fprintln(sandbox.Stderr, line)
		return
	}
	sandbox.Stderr.Write(b)
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

// lineFormatter prints "omega-run: warning: msg", like the init stage,
// and an entry's fields after it as key=value, sorted.
type lineFormatter struct{}

func (lineFormatter) Format(e *logrus.Entry) ([]byte, error) {
	line := "omega-run: " + e.Level.String() + ": " + termsafe.String(e.Message)
	for _, k := range slices.Sorted(maps.Keys(e.Data)) {
		v := fmt.Sprint(e.Data[k])
		// Quoted (strconv.Quote escapes what a terminal would act on)
		// where termsafe would change it too: a C1 control is no space.
		if v == "" || termsafe.String(v) != v || strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == '"' || r == '=' }) {
			v = strconv.Quote(v)
		}
		line += " " + k + "=" + v
	}
	return []byte(line + "\n"), nil
}
