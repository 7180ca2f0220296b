# The contract CI and people use. `make run` is the main job; `make test` is
# what CI runs (.ci/run calls it).

GO       ?= go
VERSION  := $(shell git describe --always --dirty --tags 2>/dev/null || echo dev)
LDFLAGS  := -X gauntlet/harness.Version=$(VERSION)
BIN      := bin/gauntlet
OUT      ?= out
FUZZTIME ?= 200000x

.PHONY: all build run test test-long bench fuzz lint clean examples

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/gauntlet

# The main job: a short seeded tuning study of a built-in strategy on
# embedded SQLite, then the tables, plots and HTML report of it in $(OUT)/.
run: build
	./scripts/run.sh $(BIN) $(OUT)

# A binary built with -race sleeps a second at exit by default; the CLI
# tests start hundreds of them.
export GORACE ?= atexit_sleep_ms=0

# Packages that run goroutines of their own are tested under the race
# detector; the strategies are single-threaded searches, tested without it
# (the detector slows them tenfold and finds nothing there).
RACE_PKGS     = $$($(GO) list ./... | grep -v /strategies/)
STRATEGY_PKGS = ./strategies/...

# Every package's tests in their -short form (every conformance case, the
# race detector on the harness, stores, tuning and external bots): ≤ 5
# minutes on 2 cores. Full-size strength and determinism runs are in
# test-long.
test:
	$(GO) vet ./...
	$(GO) test -short -race -timeout 20m $(RACE_PKGS)
	$(GO) test -short -timeout 20m $(STRATEGY_PKGS)

# The tests at full size (strength of the strategies, long determinism and
# kill/resume runs), then the exact-budget timing tests alone, one package
# at a time, so that no other test's load moves their clocks.
test-long:
	$(GO) test -race -timeout 60m $(RACE_PKGS)
	$(GO) test -timeout 60m $(STRATEGY_PKGS)
	GAUNTLET_EXACT_TIMING=1 $(GO) test -count=1 -p 1 -run Budget ./referees/... ./harness/games ./e2e

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1s ./...

# Every fuzz target for FUZZTIME each: a count of inputs (200000x), not a
# duration, since Go 1.26's fuzzing coordinator can report its own end of
# a -fuzztime duration as the target's failure ("context deadline
# exceeded", golang/go#75804).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# gofmt, go vet, staticcheck, errcheck (its exclusions, each with its
# reason, in internal/lint/errcheck.txt; tests are not checked) and the
# project's own source checks (internal/lint: no global math/rand, no path
# outside the repository, ...). The linters are pinned as tools in go.mod.
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) tool errcheck -ignoretests -exclude internal/lint/errcheck.txt ./...
	$(GO) test -count=1 ./internal/lint/

# The example external bots of README's "Tune your own bot": the C++ brew
# bot built with the system's g++ (the Python ones need no build).
examples: bin/brew-bot

bin/brew-bot: examples/brew-cpp/bot.cpp
	@mkdir -p bin
	$(CXX) -O2 -std=c++17 -Wall -Wextra -o $@ $<

clean:
	rm -rf bin $(OUT)
