// Package archtest holds no code: its tests run `go list` over the module
// and check the allowed import directions between ccreplay's packages,
// the layering docs/ARCHITECTURE.md describes (arch_test.go: each rule in
// its table says why it exists; a violation names the importing package,
// the imported one and the import chain between them), and that the
// package table of docs/ARCHITECTURE.md lists every package with exactly
// the imports it has (map_test.go).
package archtest
