package nsexec

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/omega-run/omega-run/internal/stderr"
	"github.com/omega-run/omega-run/internal/termsafe"
)

// warner writes the init stage's warnings in the parent's log format.
// The init stage is a fresh process, so the parent's logger setup does
// not reach it; the field names match logrus' JSON formatter.
type warner struct{ json bool }

func (w warner) warn(msg string) { w.line("warning", "warning", "", msg) }

// fatal writes the init stage's last line, before it exits.
func (w warner) fatal(err error) { w.line("error", "init", "init: ", err.Error()) }

// line writes "omega-run: tag: msg", or a JSON object at level whose msg
// is jsonPrefix followed by msg (cinit_errors.c's log_line).
func (w warner) line(level, tag, jsonPrefix, msg string) {
	if !w.json {
		// Escaped, as cinit_errors.c's log_line does: paths in a
		// message may be a confined program's choice.
		fmt.Fprintf(stderr.Writer, "omega-run: %s: %s\n", tag, termsafe.String(msg))
		return
	}
	line, _ := json.Marshal(map[string]string{
		"level": level, "msg": jsonPrefix + msg, "time": time.Now().Format(time.RFC3339),
	})
	fmt.Fprintf(stderr.Writer, "%s\n", line)
}
