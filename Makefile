# The contract CI and people use. `make run` is the main job; `make test` is
# what CI runs (.ci/run calls it).

GO       ?= go
VERSION  := $(shell git describe --always --dirty --tags 2>/dev/null || echo dev)
LDFLAGS  := -X gauntlet/harness.Version=$(VERSION)
BIN      := bin/gauntlet
OUT      ?= out
FUZZTIME ?= 20s

.PHONY: all build run test bench fuzz lint clean examples

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/gauntlet

# The main job: a short seeded tuning study of a built-in strategy on
# embedded SQLite, then the tables, plots and HTML report of it in $(OUT)/.
run: build
	./scripts/run.sh $(BIN) $(OUT)

# vet + every test with the race detector.
test:
	$(GO) vet ./...
	$(GO) test -race -timeout 40m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1s ./...

# Every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# gofmt, go vet and the project's own source checks (no global math/rand).
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet ./...
	$(GO) test ./internal/lint/

# The example external bots of README's "Tune your own bot": the C++ brew
# bot built with the system's g++ (the Python ones need no build).
examples: bin/brew-bot

bin/brew-bot: examples/brew-cpp/bot.cpp
	@mkdir -p bin
	$(CXX) -O2 -std=c++17 -Wall -Wextra -o $@ $<

clean:
	rm -rf bin $(OUT)
