package nsexec

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// warner writes the init stage's warnings in the parent's log format.
// The init stage is a fresh process, so the parent's logger setup does
// not reach it; the field names match logrus' JSON formatter.
type warner struct{ json bool }

func (w warner) warn(msg string) {
	if !w.json {
		fmt.Fprintf(os.Stderr, "omega-run: warning: %s\n", msg)
		return
	}
	line, _ := json.Marshal(map[string]string{
		"level": "warning", "msg": msg, "time": time.Now().Format(time.RFC3339),
	})
	fmt.Fprintf(os.Stderr, "%s\n", line)
}
