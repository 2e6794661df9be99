package replay

import "fmt"

// StalledWarning is a warning for a run that ended with flows unfinished
// although nothing limited its time (Config.MaxTime 0): every event was
// done and data was left to send. A PFC deadlock can do that in a
// network with cyclic buffer dependencies; anywhere else it is a bug of
// the model (a flow nothing wakes), to report. Empty when every flow
// finished or the run had a time limit.
func StalledWarning(cfg *Config, res *Result) string {
	s := &res.Summary
	if cfg.MaxTime > 0 || s.FlowsFinished >= s.Flows {
		return ""
	}
	return fmt.Sprintf("%d of %d flows never finished: the network went idle at %v with their data unsent or unacknowledged (a PFC deadlock, or a bug to report)",
		s.Flows-s.FlowsFinished, s.Flows, res.SimEnd)
}
