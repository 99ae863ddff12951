# omega-run — build, test and run. `make help` lists the targets.
GO        ?= go
BIN       ?= omega-run
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# urfave_cli_no_docs leaves urfave/cli's man page generator and its
# markdown library out of the binary: ~0.6 ms less package init on every
# start (bench/PROFILE.md). The man page comes from `go run . manpage`.
BUILDTAGS ?= urfave_cli_no_docs
# make install: $(DESTDIR)$(PREFIX)/bin, man page and bash/zsh completion.
PREFIX      ?= /usr/local
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
# make static / make dist: scripts/build-static.sh is the one static build
# command (internal/static's test runs it too).
HOSTARCH    := $(shell $(GO) env GOHOSTARCH 2>/dev/null)
# Debian packages for building and testing; musl-tools, gperf, curl and
# xz-utils build the static release binary's musl libseccomp; nodejs, npm
# and python3-venv are the everyday tools (and Claude Code) the e2e suite
# runs confined (Debian's npm only where no npm is installed: NodeSource's
# nodejs ships its own and conflicts with it); procps gives its zombie
# test ps; zsh checks the zsh completion's syntax; strace fails an open
# for the unreadable-mount-table test.
NODEDEBS    := $(if $(shell command -v npm 2>/dev/null),,nodejs npm)
DEBS        := libseccomp-dev bubblewrap pkg-config gcc musl-tools gperf curl xz-utils patch python3-venv procps zsh strace $(NODEDEBS)
STATIC_ENV  := GO='$(GO)' LDFLAGS='$(LDFLAGS)' BUILDTAGS='$(BUILDTAGS)'

.PHONY: help deps build test test-short run cross lint clean static deps-cross dist install uninstall

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | column -t -s "$$(printf '\t')"

deps: ## install what building and testing need (Debian; root or sudo)
	@if ! pkg-config --exists libseccomp 2>/dev/null || ! command -v bwrap >/dev/null || ! command -v musl-gcc >/dev/null || ! command -v gperf >/dev/null \
	   || ! command -v curl >/dev/null || ! command -v patch >/dev/null || ! command -v xz >/dev/null \
	   || ! command -v npm >/dev/null || ! command -v ps >/dev/null || ! command -v zsh >/dev/null || ! command -v strace >/dev/null || ! python3 -c 'import ensurepip' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $(DEBS); \
	  else echo "run: sudo apt-get install -y $(DEBS)"; exit 1; fi; fi
	$(GO) mod download

build: deps ## build ./omega-run (cgo, libseccomp)
	$(GO) build -trimpath -tags '$(BUILDTAGS)' -ldflags '$(LDFLAGS)' -o $(BIN) .

test: deps ## vet, gofmt, staticcheck, cross-compile matrix, every test with -race, then the e2e suite on the static build
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory cross
	$(GO) test -race -timeout 30m -count=1 ./...
	@echo "test: the end-to-end suite again, on the static release build (musl)"
	$(STATIC_ENV) GOARCH=$(HOSTARCH) scripts/build-static.sh .build/$(BIN)-static-test
	OMEGA_E2E_BIN=$(CURDIR)/.build/$(BIN)-static-test $(GO) test -timeout 30m -count=1 ./internal/e2e
	@echo "test: the packages whose init stage differs, with the Go init stage (-tags omega_goinit)"
	$(GO) test -count=1 -tags 'omega_goinit' ./sandbox ./nsexec ./landlock
	@echo "test: the same without cgo, the Go init stage users of go install get"
	CGO_ENABLED=0 $(GO) test -count=1 ./nsexec
	@echo "test: the C and libseccomp packages' tests, linked against musl as the release build is"
	GOARCH=$(HOSTARCH) && . scripts/musl-env.sh && $(GO) test -count=1 -tags 'netgo osusergo' \
	  -ldflags "-linkmode external -extldflags '$$MUSL_EXTLDFLAGS'" ./seccomp ./nsexec ./landlock ./sandbox

test-short: ## unit tests only (no root, no e2e)
	$(GO) test -short -count=1 ./...

run: build ## a real confined run on the embedded defaults
	./$(BIN) $(RUNFLAGS) -- sh -c 'echo "confined as $$(id -un) in $$OMEGA_SANDBOX mode"; \
	  echo ok > "$$HOME/.omega/workspace/omega-run-demo" && echo "write in the data dir: allowed"; \
	  if { echo no > "$$HOME/omega-run-demo"; } 2>/dev/null; then echo "write in \$$HOME: ALLOWED, the program is not confined" >&2; exit 1; fi; \
	  echo "write in \$$HOME: denied (read-only to the program)"'

lint: ## staticcheck (honnef.co/go/tools, fetched at a pinned version) on Linux and with the Go init stage
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 -tags omega_goinit ./nsexec ./sandbox

cross: ## cross-compile and vet darwin/amd64, darwin/arm64, windows, freebsd, linux/arm64
	@set -e; for t in darwin/amd64 darwin/arm64 windows/amd64 freebsd/amd64 linux/arm64; do \
	  echo "cross: $$t"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./... ; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet ./... ; \
	done

clean: ## remove build outputs (.build/'s musl libseccomp stays: it takes a download)
	rm -rf $(BIN) dist .build/$(BIN)-static-test

static: deps ## build dist/omega-run-linux-<arch>: static (libseccomp linked in, no ELF interpreter), stripped
	$(STATIC_ENV) GOARCH=$(HOSTARCH) scripts/build-static.sh dist/$(BIN)-linux-$(HOSTARCH)

deps-cross: ## install the arm64 cross compiler and libseccomp-dev:arm64 that make dist needs (Debian amd64; root)
	@if ! command -v aarch64-linux-gnu-gcc >/dev/null || [ ! -f /usr/lib/aarch64-linux-gnu/libseccomp.a ]; then \
	  if [ "$$(id -u)" = 0 ]; then dpkg --add-architecture arm64 && apt-get update -qq && apt-get install -y -qq gcc-aarch64-linux-gnu libseccomp-dev:arm64; \
	  else echo "run: sudo sh -c 'dpkg --add-architecture arm64 && apt-get update && apt-get install -y gcc-aarch64-linux-gnu libseccomp-dev:arm64'"; exit 1; fi; fi

dist: deps deps-cross ## release binaries in dist/: static linux amd64+arm64, darwin amd64+arm64 (no cgo), SHA256SUMS
	rm -f dist/$(BIN)-* dist/SHA256SUMS
	@set -e; for arch in amd64 arm64; do \
	  echo "dist: linux/$$arch (static)"; \
	  $(STATIC_ENV) GOARCH=$$arch scripts/build-static.sh dist/$(BIN)-linux-$$arch; \
	  echo "dist: darwin/$$arch"; \
	  GOOS=darwin GOARCH=$$arch CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w $(LDFLAGS)' -o dist/$(BIN)-darwin-$$arch . ; \
	done
	cd dist && sha256sum $(BIN)-* > SHA256SUMS
	@cat dist/SHA256SUMS

# make install installs the static release build (musl): the dynamic one
# starts 0.8-1.4 ms slower (ld.so, glibc; bench/RESULTS.md).
STATIC_BIN  := dist/$(BIN)-linux-$(HOSTARCH)
install: static ## install the static omega-run, omega-run(1) and bash/zsh completion under $(DESTDIR)$(PREFIX)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 $(STATIC_BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)
	@set -e; gen() { out=$$1; shift; ./$(STATIC_BIN) "$$@" > "$$out" || { rm -f "$$out"; exit 1; }; chmod 0644 "$$out"; echo "$$out"; }; \
	  $(GO) run -trimpath . manpage > $(DESTDIR)$(MANDIR)/man1/$(BIN).1; chmod 0644 $(DESTDIR)$(MANDIR)/man1/$(BIN).1; \
	  gen $(DESTDIR)$(BASHCOMPDIR)/$(BIN) completion bash; \
	  gen $(DESTDIR)$(ZSHCOMPDIR)/_$(BIN) completion zsh

uninstall: ## remove what make install installed (same PREFIX and DESTDIR)
	rm -f $(DESTDIR)$(PREFIX)/bin/$(BIN) $(DESTDIR)$(MANDIR)/man1/$(BIN).1 \
	  $(DESTDIR)$(BASHCOMPDIR)/$(BIN) $(DESTDIR)$(ZSHCOMPDIR)/_$(BIN)
