// Package archtest holds no code: its test (arch_test.go) runs `go list`
// over the module and checks the allowed import directions between
// ccreplay's packages, the layering docs/ARCHITECTURE.md describes. Each
// rule in its table says why it exists; a violation names the importing
// package, the imported one and the import chain between them.
package archtest
