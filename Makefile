# osbench: the two set-up commands are `make demo` and `make test`.
# Both install what they need on a fresh Debian machine with Go.

GO        ?= go
BIN       := bin/osbench
OUT       ?= out/demo
FUZZTIME  ?= 10s
export GOFLAGS := -mod=mod

.PHONY: all build test unit fuzz e2e bench demo lint deps clean

all: build

# deps installs the system packages the tests and demo drive for real.
deps:
	@./scripts/deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/osbench

# test: vet, every unit and end-to-end test, then each fuzz target briefly.
test: deps lint unit fuzz

unit:
	$(GO) test -count=1 -timeout=25m ./...

# Fuzz targets run one at a time (go test allows one -fuzz per package run).
fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './testdata/*'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...

bench: build
	$(GO) run ./cmd/osbench-bench

# demo: the main job on the bundled examples — validate, build (runs on Linux
# and Windows, differential coverage, verification, masking, labels, tasks),
# show what was made, show that a second build is all cache hits, then evaluate
# the tasks' gold patches and empty patches as two models (gold resolves every
# task, empty none) and print the summary.
demo: deps build
	$(BIN) validate
	$(BIN) build --out $(OUT)
	@echo "--- exported to $(OUT): $$(ls $(OUT) | tr '\n' ' ')"
	@echo "--- $$(wc -l < $(OUT)/tasks.jsonl) tasks in $(OUT)/tasks.jsonl"
	@cat $(OUT)/build-report.md
	$(BIN) plan | tail -n 1
	$(BIN) build --out $(OUT)
	$(BIN) eval --tasks $(OUT)/tasks.jsonl --predictions gold --predictions empty --out $(OUT)/eval

clean:
	rm -rf bin out
