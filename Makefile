# kumalak — see README.md. Every target works from a fresh clone.
GO        ?= go
BIN       := bin/kumalak
PKGS      := ./...
FUZZTIME  ?= 20s
BENCHTIME ?= 1s
GAME      ?= togyz
RUN       ?= runs/$(GAME)
BUDGET    ?= 30m

.PHONY: help build run check test bench fuzz lint clean

## build: the binary at bin/kumalak (the default target).
build:
	$(GO) build -o $(BIN) ./cmd/kumalak

## help: list the targets and what each does (this list).
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## run: the main job — train GAME (togyz, mangala, mangala-kale or kalah) with its default config for about $(BUDGET).
run: build
	$(BIN) train --config configs/$(GAME).yaml --run $(RUN) --resume --budget $(BUDGET)

## check: the edit-test loop (under two minutes on 2 cores): lint, then the tests with -short.
check: lint
	$(GO) test -short -count=1 -timeout 2m $(PKGS)

# PLAIN_TESTS: the tests that mean more without the race detector, run again
# without it: allocation counts (sync.Pool drops items at random under -race)
# and net's kernel sweeps. cmd/kumalak's TestAllocTestsRunPlain keeps every
# allocation test's name matching.
PLAIN_TESTS := Alloc|Kernel
PLAIN_PKGS   = $$(git grep -l -E 'func Test[A-Za-z0-9_]*($(PLAIN_TESTS))' -- '*_test.go' | xargs -n1 dirname | sort -u | sed 's|^|./|')

## test: lint, the whole suite once under the race detector, then the allocation and kernel tests without it.
test: lint
	$(GO) test -count=1 -race -timeout 10m $(PKGS)
	$(GO) test -count=1 -run '$(PLAIN_TESTS)' $(PLAIN_PKGS)

## bench: every benchmark with -benchmem, BENCHTIME each (figures in BENCHMARKS.md).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

## fuzz: run every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## lint: go vet (and of the wasm bot, built for the browser), gofmt and staticcheck (a tool dependency in go.mod).
lint:
	$(GO) vet $(PKGS)
	GOOS=js GOARCH=wasm $(GO) vet ./cmd/kumalak-wasm
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) tool staticcheck $(PKGS)

## clean: remove bin/.
clean:
	rm -rf bin
