# ccreplay: build, test, benchmark. `make test` is the command CI runs.
GO ?= go

.PHONY: all build test test-duckdb vet fmt-check fuzz bench bench-e2e clean

all: build

build:
	$(GO) build -o ccreplay ./cmd/ccreplay

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Every test: unit, physics, determinism, Arrow read-back, CLI, and each
# fuzz target's seed corpus, then the DuckDB module. Tests reading
# ../shared/data skip when it is absent.
test: fmt-check vet
	$(GO) test -count=1 ./...
	$(MAKE) test-duckdb

# tests/duckdb, a module of its own (cgo, so the ccreplay binary keeps none):
# DuckDB (duckdb-go) reads every output file kind of real runs, the notebooks'
# SQL (notebooks/sql) must give ccreplay's own metrics, and the notebooks are
# validated (executed only where Python has DuckDB). -mod=mod lets go add
# go.sum lines for requirements the main module gains; it builds (and
# fetches) only this platform's DuckDB library. The first build takes ~1 min.
# Prints the lines saying what could not be checked here (skips, known issues).
test-duckdb:
	cd tests/duckdb && GOFLAGS="$$GOFLAGS -mod=mod" CGO_ENABLED=1 $(GO) vet .
	@cd tests/duckdb && log=$$(mktemp) && status=0 && \
	{ GOFLAGS="$$GOFLAGS -mod=mod" CGO_ENABLED=1 $(GO) test -count=1 -v . >"$$log" 2>&1 || status=$$?; } && \
	if [ $$status -ne 0 ]; then grep -v -e '^=== ' -e '^--- PASS' "$$log"; else \
	grep -E 'NOT EXECUTED|NOT VALIDATED|KNOWN ISSUE|has no .* subcommand|real data absent' "$$log" | sed 's/^ *[a-z_]*\.go:[0-9]*: /tests\/duckdb: /'; \
	grep -E '^(ok|FAIL)' "$$log"; fi; rm -f "$$log"; exit $$status

# Short fuzzing of every parser (each target for FUZZTIME).
FUZZTIME ?= 20s
fuzz:
	$(GO) test ./trace -run '^$$' -fuzz FuzzReadCSV -fuzztime $(FUZZTIME)
	$(GO) test ./trace -run '^$$' -fuzz FuzzReadJSONL -fuzztime $(FUZZTIME)
	$(GO) test ./trace -run '^$$' -fuzz FuzzReadParquet -fuzztime $(FUZZTIME)
	$(GO) test ./topology -run '^$$' -fuzz FuzzReadHPCC -fuzztime $(FUZZTIME)
	$(GO) test ./units -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/ccreplay -run '^$$' -fuzz FuzzLoadConfig -fuzztime $(FUZZTIME)
	$(GO) test ./ingest/roce -run '^$$' -fuzz FuzzDecodeBTH -fuzztime $(FUZZTIME)
	$(GO) test ./ingest -run '^$$' -fuzz FuzzLoadPcap -fuzztime $(FUZZTIME)

# Hot-path micro-benchmarks (event heap, packet log, whole runs, packet-log scan, tree and MLP decisions).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./replay/... ./output/ ./topology/ ./metrics/... ./rl/gbt/ ./cca/rlcc/

# End-to-end: packets per second and peak memory of whole runs (one core).
bench-e2e: build
	./scripts/bench-e2e.sh ./ccreplay

clean:
	rm -f ccreplay
