// Package duckdbcheck proves ccreplay's outputs with a second and a third
// implementation: DuckDB (through github.com/duckdb/duckdb-go/v2, cgo)
// opens every output file kind, checks its column types, row counts and
// schema metadata, and runs the SQL of the notebooks (../../notebooks/sql)
// on real runs, whose numbers must equal what ccreplay itself computed
// (summary.json, comparison.parquet, `ccreplay metrics` when it exists).
//
// It is a module of its own so that the ccreplay binary keeps no cgo. Run
// it from this folder with
//
//	GOFLAGS=-mod=mod go test -count=1 .
//
// (-mod=mod lets go add the go.sum lines of requirements the main module
// gains later; it never downloads the DuckDB libraries of other platforms,
// since only this platform's package is built). `make test` does this.
// The tests build the CLI from the main module (with its own go.mod) and
// produce their runs in a temporary folder.
package duckdbcheck
