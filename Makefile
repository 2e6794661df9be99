# ccreplay: build, test, benchmark. `make test` is the command CI runs.
GO ?= go

.PHONY: all build test vet fmt-check fuzz bench bench-e2e clean

all: build

build:
	$(GO) build -o ccreplay ./cmd/ccreplay

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Every test: unit, physics, determinism, Arrow read-back, CLI, and each
# fuzz target's seed corpus. Tests reading ../shared/data skip when it is absent.
test: fmt-check vet
	$(GO) test -count=1 ./...

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

# Hot-path micro-benchmarks (event heap, packet log, whole runs).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./replay/... ./output/ ./topology/

# End-to-end: packets per second and peak memory of whole runs (one core).
bench-e2e: build
	./scripts/bench-e2e.sh ./ccreplay

clean:
	rm -f ccreplay
