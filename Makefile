# Strata: the two commands a new user needs are `make demo` and `make test`.
# Both install the Debian packages the build needs when they are missing.

SWIFT      ?= swift
PACKAGES   := libsqlite3-dev libxml2-dev libarchive-dev zlib1g-dev libicu-dev libssl-dev pkg-config sqlite3 \
              graphviz
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_DIR   ?= .build/demo

.PHONY: all build release demo test deps lint clean bench fuzz fuzz-smoke docs diary-app

all: build

# Install only what is missing, so a prepared machine does not touch apt at all.
deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "Installing:$$missing"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# Release builds link Swift's runtime and Foundation into each executable: loading them as shared
# libraries costs every command about 9 ms at start-up, more than a small migration's work.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

demo: build
	$(SWIFT) run --skip-build strata demo $(DEMO_DIR)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	@bash .ci/check-layers
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory diary-app

# The sample app (Samples/DiaryApp): builds with the StrataModelPlugin (Strata by path, no
# network) and must print exactly Samples/DiaryApp/expected-output.txt.
DIARY_APP := Samples/DiaryApp
diary-app: deps
	$(SWIFT) build --package-path $(DIARY_APP)
	@out="$$($(SWIFT) build --package-path $(DIARY_APP) --show-bin-path)/DiaryApp"; \
	"$$out" > $(DIARY_APP)/.build/output.txt && \
	diff -u $(DIARY_APP)/expected-output.txt $(DIARY_APP)/.build/output.txt && \
	echo "DiaryApp: output as expected"

# The model diagrams the README shows, drawn by `strata schema diagram` (Graphviz lays them out),
# and ARCHITECTURE.md's target graph.
DIAGRAMS   := Recipes Diary
docs: build
	@mkdir -p docs
	dot -Tsvg docs/architecture.dot -o docs/architecture.svg
	@for model in $(DIAGRAMS); do \
	    $(SWIFT) run --skip-build strata schema diagram Schemas/$$model -o docs/$$model.svg || exit 1; \
	done

lint:
	$(SWIFT) format lint -r Sources Tests

bench: release
	$(SWIFT) run -c release --skip-build strata-bench

# Fuzzing (Fuzz/README.md): each parser's libFuzzer target for SECONDS seconds in turn;
# `make test` runs 2,000 inputs of each from a fixed seed (deterministic).
SECONDS ?= 60
fuzz: deps
	SWIFT=$(SWIFT) bash Fuzz/run.sh $(SECONDS)

fuzz-smoke: deps
	SWIFT=$(SWIFT) FUZZ_RUNS=2000 bash Fuzz/run.sh

clean:
	rm -rf .build
