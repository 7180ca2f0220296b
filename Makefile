# The contract CI and people use. `make run` is the main job; `make test` is
# what CI runs (.ci/run calls it).

GO       ?= go
VERSION  := $(shell git describe --always --dirty --tags 2>/dev/null || echo dev)
LDFLAGS  := -X gauntlet/harness/entrant.Version=$(VERSION)
BIN      := bin/gauntlet
OUT      ?= out
FUZZTIME ?= 200000x

.PHONY: all build run test test-race test-plain test-long bench bench-smoke fuzz lint clean examples

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/gauntlet

# The main job: a short seeded tuning study of a built-in strategy on
# embedded SQLite, then the tables, plots and HTML report of it in $(OUT)/.
run: build
	./scripts/run.sh $(BIN) $(OUT)

# Builds and tests leave the checkout's directory out of what they compile
# (file names are module paths), so a clone in another directory, or a
# worktree, reuses the build cache of every earlier one instead of
# compiling each gauntlet package again: a fresh clone's `go build` 14.4 s
# without it, 4.0 s with it on this project's 2-core machine.
export GOFLAGS += -trimpath

# A binary built with -race sleeps a second at exit by default; the CLI
# tests start hundreds of them.
export GORACE ?= atexit_sleep_ms=0

# Packages that run goroutines of their own (the harness, stores, tuning,
# the CLI, the external bots' processes in referees/internal) and those
# built on them are tested under the race detector. The strategies and the
# referees' rules are single-threaded, tested without it: the detector
# slowed them up to tenfold (Paper.io's tests 65 s against 8 s) and finds
# nothing there; internal/lint fails if one of them starts a goroutine.
# (Neither needs SQLite, whose C code takes a minute to compile for each
# of the two builds.)
RACE_PKGS  = $$($(GO) list ./... | grep -v -e /strategies/ -e '/referees/[a-z]*$$')
PLAIN_PKGS = ./strategies/... $$($(GO) list ./referees/... | grep -v /internal/)

# Every package's tests in their -short form (every conformance case, the
# race detector on the harness, stores, tuning and external bots): ≤ 5
# minutes on 2 cores. Full-size strength and determinism runs are in
# test-long. go vet runs in lint, not here (-vet=off: go test would run its
# main checks again for each of the two builds).
# The two halves run side by side: the race build's first minute is
# SQLite's C code compiling on one core, which the other half fills.
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=line test-race test-plain

# SQLite's C code (the race build's longest step: one file, one core)
# is compiled for the tests without optimisation or debug information:
# 28 s against 82 s at the default -O2 -g (42 s at -O1) on this
# project's 2-core machine. The tests store little; builds and
# benchmarks keep the default flags.
RACE_CGO_CFLAGS ?= -O0 -g0

test-race:
	CGO_CFLAGS="$(RACE_CGO_CFLAGS)" $(GO) test -short -race -vet=off -timeout 20m $(RACE_PKGS)

test-plain:
	$(GO) test -short -vet=off -timeout 20m $(PLAIN_PKGS)

# The tests at full size (strength of the strategies, long determinism and
# kill/resume runs), then the exact-budget timing tests alone, one package
# at a time, so that no other test's load moves their clocks, then every
# benchmark once (bench-smoke).
test-long:
	CGO_CFLAGS="$(RACE_CGO_CFLAGS)" $(GO) test -race -timeout 60m $(RACE_PKGS)
	$(GO) test -timeout 60m $(PLAIN_PKGS)
	GAUNTLET_EXACT_TIMING=1 $(GO) test -count=1 -p 1 -run Budget ./referees/... ./games ./e2e
	@$(MAKE) --no-print-directory bench-smoke

# Every benchmark one iteration in its -short form, so that a benchmark
# that fails or never ends fails make test-long, not a later make bench:
# about 2 minutes. go test's -timeout does not cover benchmarks, so the
# limit is timeout(1)'s, which signals the whole process group (exit
# status 124).
bench-smoke:
	timeout -k 30s 15m $(GO) test -short -run '^$$' -bench . -benchtime 1x ./...

# Every benchmark at -benchtime 1s: about 15 minutes on 2 cores, 7 of
# them hexlookahead's one solve of problem 24.
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

# The example external bots of docs/external-bots.md's "Tune your own bot": the C++ brew
# bot built with the system's g++ (the Python ones need no build).
examples: bin/brew-bot

bin/brew-bot: examples/brew-cpp/bot.cpp
	@mkdir -p bin
	$(CXX) -O2 -std=c++17 -Wall -Wextra -o $@ $<

clean:
	rm -rf bin $(OUT)
