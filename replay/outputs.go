package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
)

// StalledWarning is a warning for a run that ended with flows unfinished
// although nothing limited its time (Config.MaxTime 0): every event was
// done and data was left to send. A PFC deadlock can do that in a
// network with cyclic buffer dependencies; anywhere else it is a bug of
// the model (a flow nothing wakes), to report. Empty when every flow
// finished or the run had a time limit. flows and finished count the
// run's flows and those that finished (metrics.Summary's Flows and
// FlowsFinished); end is the run's SimEnd.
func StalledWarning(cfg *Config, end units.Time, flows, finished int64) string {
	if cfg.MaxTime > 0 || finished >= flows {
		return ""
	}
	return fmt.Sprintf("%d of %d flows never finished: the network went idle at %v with their data unsent or unacknowledged (a PFC deadlock, or a bug to report)",
		flows-finished, flows, end)
}
