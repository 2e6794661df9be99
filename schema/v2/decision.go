package v2

import v1 "github.com/ccreplay/ccreplay/schema/v1"

// DecisionRow is one row of decisions.parquet: one congestion-control
// decision of one flow, its observation, action, transition and rewards
// (docs/DATASETS.md describes every column). Version 2 did not change it:
// it is version 1's row, whose declaration (schema/v1/decision.go) holds
// the columns and their units.
type DecisionRow = v1.DecisionRow
