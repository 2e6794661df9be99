package v2

import v1 "github.com/ccreplay/ccreplay/schema/v1"

// LearningRow is one row of learning.parquet (`ccreplay train rlcc`): one
// training iteration (RL-CC, Tessler 2022, Eq. 3). Version 2 did not
// change it: it is version 1's row, whose declaration
// (schema/v1/learning.go) holds the columns and their units.
type LearningRow = v1.LearningRow
