# omega-run — build, test and run. `make help` lists the targets.
GO        ?= go
BIN       ?= omega-run
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -X main.version=$(VERSION) -X main.commit=$(COMMIT)

.PHONY: help deps build test test-short run cross lint clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | column -t -s "$$(printf '\t')"

deps: ## install what building and testing need (Debian; root or sudo)
	@if ! pkg-config --exists libseccomp 2>/dev/null || ! command -v bwrap >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libseccomp-dev bubblewrap pkg-config gcc; \
	  else echo "run: sudo apt-get install -y libseccomp-dev bubblewrap pkg-config gcc"; exit 1; fi; fi
	$(GO) mod download

build: deps ## build ./omega-run (cgo, libseccomp)
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

test: deps ## vet, gofmt, cross-compile matrix, then every test with -race
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(MAKE) --no-print-directory cross
	$(GO) test -race -timeout 15m -count=1 ./...

test-short: ## unit tests only (no root, no e2e)
	$(GO) test -short -count=1 ./...

run: build ## a real confined run on the embedded defaults
	./$(BIN) -- sh -c 'echo "confined as $$(id -un) in $$OMEGA_SANDBOX mode"; \
	  echo ok > "$$HOME/.omega/workspace/omega-run-demo" && echo "write in the data dir: allowed"; \
	  echo no > "$$HOME/omega-run-demo" 2>/dev/null || echo "write in \$$HOME: denied"'

cross: ## cross-compile and vet darwin/amd64, darwin/arm64, windows, freebsd, linux/arm64
	@set -e; for t in darwin/amd64 darwin/arm64 windows/amd64 freebsd/amd64 linux/arm64; do \
	  echo "cross: $$t"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./... ; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet ./... ; \
	done

clean: ## remove build outputs
	rm -rf $(BIN) dist
