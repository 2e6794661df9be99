package v2

import v1 "github.com/ccreplay/ccreplay/schema/v1"

// ComparisonRow is one row of comparison.parquet (`ccreplay compare`): one
// run (algorithm, seed) and one flow-size bucket of it, bucket -1 the
// whole run. Version 2 did not change it: it is version 1's row, whose
// declaration (schema/v1/comparison.go) holds the columns and their units.
type ComparisonRow = v1.ComparisonRow
