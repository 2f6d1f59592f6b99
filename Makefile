# osbench: the two set-up commands are `make demo` and `make test`.
# Both install what they need on a fresh Debian machine with Go.

GO        ?= go
BIN       := bin/osbench
OUT       ?= out/demo
FUZZTIME  ?= 10s
export GOFLAGS := -mod=mod

.PHONY: all build test unit fuzz e2e e2e-temporal-full bench reliability demo corpus redteam lint deps tools clean

all: build

# deps installs the system packages the tests and demo drive for real.
deps:
	@./scripts/deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/osbench

# tools: programs the tests drive that Debian does not package, built once
# into a cache outside the repository (kept across checkouts and CI runs
# that cache $HOME/.cache). The Temporal CLI (its dev server) takes about
# 6 minutes to build on a 2-core machine, once.
TOOLS_DIR    ?= $(HOME)/.cache/osbench-tools
TEMPORAL_VER := v1.5.1
TEMPORAL_CLI := $(TOOLS_DIR)/temporal-$(TEMPORAL_VER)/temporal
export OSBENCH_TEMPORAL_CLI := $(TEMPORAL_CLI)

# mini-swe-agent (PyPI, pinned), the agent CLI the solve tests drive
# against a fake LM server, in a venv of Debian's python3 (readable by the
# unprivileged uid an agent runs as; a pyenv under /root is not). About 3
# minutes and 750 MB, once.
MINI_SWE_AGENT_VER := 2.4.6
MINI_SWE_AGENT     := $(TOOLS_DIR)/mini-swe-agent-$(MINI_SWE_AGENT_VER)/bin/mini
export OSBENCH_MINI_SWE_AGENT := $(MINI_SWE_AGENT)

# The Codex CLI (npm, @openai/codex and its Linux binary package), the npm
# coding CLI the solve tests drive against a fake Responses API: `npm ci`
# from scripts/codex/package-lock.json, exact versions with their sha512
# integrity, no install scripts. About 20 s and 430 MB, once. The agent
# needs no registry at run time: the binary is in the package.
CODEX_VER := 0.171.0
CODEX     := $(TOOLS_DIR)/codex-$(CODEX_VER)/node_modules/.bin/codex
export OSBENCH_CODEX := $(CODEX)

tools: $(TEMPORAL_CLI) $(MINI_SWE_AGENT) $(CODEX)

$(TEMPORAL_CLI):
	GOFLAGS= GOBIN=$(dir $@) $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_VER)

$(MINI_SWE_AGENT):
	rm -rf $(TOOLS_DIR)/mini-swe-agent-$(MINI_SWE_AGENT_VER)
	/usr/bin/python3 -m venv $(TOOLS_DIR)/mini-swe-agent-$(MINI_SWE_AGENT_VER)
	$(TOOLS_DIR)/mini-swe-agent-$(MINI_SWE_AGENT_VER)/bin/pip install -q mini-swe-agent==$(MINI_SWE_AGENT_VER)

$(CODEX):
	rm -rf $(TOOLS_DIR)/codex-$(CODEX_VER)
	mkdir -p $(TOOLS_DIR)/codex-$(CODEX_VER)
	cp scripts/codex/package.json scripts/codex/package-lock.json $(TOOLS_DIR)/codex-$(CODEX_VER)/
	cd $(TOOLS_DIR)/codex-$(CODEX_VER) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	test -x $@

# test: lint, every unit and end-to-end test, then each fuzz target briefly.
test: deps tools lint unit fuzz

unit:
	$(GO) test -count=1 -timeout=25m ./...

# e2e-temporal-full: the Temporal identity test with every step of every
# example run on the workers (make test's run has the workers serve all but
# pathsep's and cpath's steps from a cache seeded with the corpus's records).
# It rebuilds the whole example corpus on two workers (about 6 minutes on two cores
# once the corpus is built, against about 70 s for make test's run); not part of make test.
e2e-temporal-full: deps tools
	OSBENCH_TEMPORAL_FULL=1 $(GO) test -count=1 -timeout=90m -run 'TestTemporalBuildAndEvalMatchLocal' -v ./cmd/osbench

# Fuzz targets run one at a time (go test allows one -fuzz per package run).
fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

# lint: gofmt, go vet, staticcheck at a pinned version (installed once
# into a tool dir outside the tree, GOPATH/osbench-tools), and osbench built
# for Windows and macOS.
STATICCHECK_VERSION := v0.8.2
STATICCHECK         := $(shell $(GO) env GOPATH)/osbench-tools/staticcheck-$(STATICCHECK_VERSION)/staticcheck

$(STATICCHECK):
	GOFLAGS= GOBIN=$(dir $@) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

lint: $(STATICCHECK)
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './testdata/*'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@# osbench itself runs on a Windows worker and builds on macOS: a file
	@# that only Linux compiles must not hold what every platform needs.
	GOOS=windows $(GO) build -o /dev/null ./cmd/osbench
	GOOS=darwin $(GO) build -o /dev/null ./cmd/osbench

# The entrytrace benchmarks run one Go test binary and one cargo test program
# (rsplat's unit tests) plainly and under the
# function-entry tracer, side by side (the cost of out-of-process evidence);
# the Wine one a Windows Go test binary plainly and under the Windows entry tracer.
# BENCH_FLAGS=-only=temporal measures only the 2-workers-vs-1 ratio (-temporal-repeat N
# pairs per set-up); -only=remote only the remote-hit row (-examples-cache DIR reuses a
# cache that holds the examples' build).
BENCH_FLAGS ?=
bench: build tools
	$(GO) run ./cmd/osbench-bench $(BENCH_FLAGS)
	$(GO) test -run '^$$' -bench . -benchtime 20x ./plugins/entrytrace
	$(GO) test -run '^$$' -bench WineEntryTracer -benchtime 5x ./plugins/executors

# reliability: crash-safety, sharing and hostile-output figures in counts
# (kill -9 of build, gc and eval then rerun; concurrent builds beside gc; a
# test printing 1 GiB; processes a test leaves behind; every bundled example
# built idle and beside 16 busy processes, compared). About ten minutes on
# two cores plus the two example builds; not part of make test.
# RELIABILITY_FLAGS="-seed N" repeats a run, "-load-busy 0" skips the load.
# "-corpus-cache DIR" (a cache make corpus built) adds the corpus under load:
# a sample of its steps (-corpus-sample, 0.05) run again beside
# -corpus-busy (16) busy processes and compared with the cached results;
# CORPUS_LOAD_ONLY below runs that section alone.
RELIABILITY_FLAGS ?=
reliability: deps build
	$(GO) run ./cmd/osbench-reliability -bin $(BIN) $(RELIABILITY_FLAGS)

# make reliability RELIABILITY_FLAGS="$(CORPUS_LOAD_ONLY) -corpus-cache DIR"
CORPUS_LOAD_ONLY = -build-trials 0 -gc-trials 0 -eval-trials 0 -example-trials 0 -concurrency "" -output 0 -load-busy 0

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

# corpus: the bundled real corpus (every manifest under manifests/corpus, in
# any subdirectory): validate, build, evaluate every task's gold and empty
# patch, then print the corpus table and write it to docs/corpus.md with the
# wall time. A repository whose steps fail keeps its row with the reason, so
# a failed build or evaluation does not stop the table (when a failed step
# blocked the step that writes tasks.jsonl, the tasks of the task steps that
# succeeded are evaluated); make fails only when the table cannot be made.
CORPUS_OUT       ?= out/corpus
CORPUS_MANIFESTS := $(shell find manifests/corpus -name '*.hcl' 2>/dev/null | sort)
CORPUS_FLAGS     ?=
CORPUS_NOTE      ?=

corpus: deps build
	@test -n "$(CORPUS_MANIFESTS)" || { echo "corpus: no manifests under manifests/corpus"; exit 1; }
	$(BIN) validate $(CORPUS_MANIFESTS)
	@start=$$(date +%s); \
	rm -f $(CORPUS_OUT)/tasks.jsonl $(CORPUS_OUT)/tasks-partial.jsonl $(CORPUS_OUT)/build-report.json $(CORPUS_OUT)/build-report.md; \
	$(BIN) $(CORPUS_FLAGS) build $(CORPUS_MANIFESTS) --out $(CORPUS_OUT) || echo "corpus: the build had failures (listed in the table)"; \
	tasks=$(CORPUS_OUT)/tasks.jsonl; \
	if [ ! -e $$tasks ]; then \
	  tasks=$(CORPUS_OUT)/tasks-partial.jsonl; \
	  $(BIN) corpus --build $(CORPUS_OUT) --partial-tasks $$tasks; \
	fi; \
	if [ -s $$tasks ]; then \
	  $(BIN) $(CORPUS_FLAGS) eval --tasks $$tasks --predictions gold --predictions empty --out $(CORPUS_OUT)/eval || echo "corpus: the evaluation had problems"; \
	else rm -rf $(CORPUS_OUT)/eval; echo "corpus: no tasks, nothing to evaluate"; fi; \
	$(BIN) corpus $(CORPUS_MANIFESTS) --build $(CORPUS_OUT) --eval $(CORPUS_OUT)/eval \
	  --wall-time $$(( $$(date +%s) - start ))s --note "$(CORPUS_NOTE)" --write docs/corpus.md

# redteam: issue 19's attacks as real patches against corpus tasks (a
# crate, a Go module, a Debian C library): the network, the host's files,
# shared writable state and the task's own package in the dependency
# cache, each beside innocent gold-equivalent controls, one of them in a
# later eval on the same cache. Writes docs/redteam.md (each verdict and
# its reason from report.json); fails if an attack resolves or a control
# does not. Without OSBENCH_CACHE it builds the three manifests on a cache
# of its own under out/redteam (about 20-40 minutes on two cores); with
# OSBENCH_CACHE set to a cache that holds them the build is all cache hits
# and it only evaluates (REDTEAM_FLAGS="-build DIR" takes an existing
# build's --out dir instead). The attacks write whatever a missing defence
# lets them into the cache's shared state: use a cache you can rebuild.
# Not part of make test.
REDTEAM_FLAGS ?=
redteam: deps build
	$(GO) run ./cmd/osbench-redteam -bin $(BIN) $(REDTEAM_FLAGS)

clean:
	rm -rf bin out
