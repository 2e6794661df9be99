# ccreplay: build, test, benchmark. `make test` is the command CI runs.
GO ?= go

.PHONY: all build test test-race test-duckdb vet fmt-check fuzz cross staticcheck bench bench-e2e bench-scale clean

all: build

# The commit is recorded by the toolchain (-buildvcs) and, where that is
# off, by the linker flag below; `ccreplay version` prints it.
build:
	$(GO) build -ldflags "-X github.com/ccreplay/ccreplay/version.commit=$$(git rev-parse HEAD 2>/dev/null)" -o ccreplay ./cmd/ccreplay

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Every test: unit, physics, determinism, Arrow read-back, CLI, and each
# fuzz target's seed corpus, the parallel replay under the race detector,
# then the DuckDB module. Tests reading
# ../shared/data skip when it is absent.
test: fmt-check vet
	$(GO) test -count=1 -timeout 30m ./...
	$(MAKE) test-race
	$(MAKE) test-duckdb

# The parallel replay under the race detector: partitions running at once
# share nothing within a window (kernel.Group, replay's partitions).
test-race:
	$(GO) test -count=1 -race -run 'Group|TestThreadsSameOutputs$$/(incast|lossy|websearch-hpcc|alltoall)|TestThreadsSameOutputsEveryAlgorithm|TestThreadsZeroDelay|TestThreadsPFC' ./kernel/ ./replay/

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

# staticcheck (pinned; `go run` fetches it through the module proxy
# without adding it to go.mod). CI runs it.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(STATICCHECK) ./...

# The CLI and every package build for Windows and macOS too (CI runs it).
cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

# Fuzzing of every fuzz target in the module (each for FUZZTIME; the list
# is found by scripts/fuzz.sh, so a new target is never left out).
# `make test` runs their seed corpora; CI also runs `make fuzz FUZZTIME=3s`.
FUZZTIME ?= 20s
fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

# Hot-path micro-benchmarks (event queue, packet log, whole runs, packet-log scan, tree and MLP decisions).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./kernel/ ./replay/... ./output/ ./topology/ ./metrics/... ./rl/gbt/... ./cca/rlcc/

# End-to-end (docs/PERFORMANCE.md): the performance issue's cases (HPCC
# fat-tree WebSearch, 16-host star WebSearch, 16-to-1 incast, 1,024-host
# fat-tree OSU all-to-all): data packets/s, events per data packet,
# events/s, peak RSS and the --packets data cost. About a minute;
# BENCH_FLAGS=--full for the issue's full scale, and e.g.
# BENCH_FLAGS="--runs 5 --base /path/to/old/ccreplay" to time an older
# build against this one, interleaved, checking identical outputs.
BENCH_FLAGS ?=
bench-e2e: build
	./scripts/bench-e2e.sh $(BENCH_FLAGS) ./ccreplay

# Cost against scale (docs/PERFORMANCE.md): wall time, peak RSS and the most
# flows held against hosts (16..4096), load (0.1..0.9) and simulated arrival
# window (1..16 ms) on the HPCC fat-tree family; scale.csv, scale.md and two
# figures in scale-out/. 5 to 7 minutes on 2 cores; SCALE_FLAGS="-grid quick"
# for a 10-second look.
SCALE_FLAGS ?=
bench-scale: build
	$(GO) run ./scripts/benchscale -bin ./ccreplay -o scale-out $(SCALE_FLAGS)

clean:
	rm -f ccreplay
