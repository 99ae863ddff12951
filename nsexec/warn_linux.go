package nsexec

import (
	"encoding/json"
	"errors"
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

// fatal writes the init stage's last line, before it exits. A failed
// execve reads as rx's ("omega-run: exec …"), which the launcher prints:
// the same failure, and "init: " would tell the user nothing more.
func (w warner) fatal(err error) {
	if errors.As(err, new(*ExecError)) {
		w.line("error", "", "", err.Error())
		return
	}
	w.line("error", "init", "init: ", err.Error())
}

// line writes "omega-run: tag: msg" ("omega-run: msg" without a tag), or
// a JSON object at level whose msg is jsonPrefix followed by msg
// (cinit_errors.c's log_line).
func (w warner) line(level, tag, jsonPrefix, msg string) {
	if !w.json {
		if tag != "" {
			tag += ": "
		}
		// Escaped, as cinit_errors.c's log_line does: paths in a
		// message may be a confined program's choice.
		fmt.Fprintf(stderr.Writer, "omega-run: %s%s\n", tag, termsafe.String(msg))
		return
	}
	line, _ := json.Marshal(map[string]string{
		"level": level, "msg": jsonPrefix + msg, "time": time.Now().Format(time.RFC3339),
	})
	fmt.Fprintf(stderr.Writer, "%s\n", line)
}
