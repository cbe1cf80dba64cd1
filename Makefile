# Developer entry points. CI runs .ci/run, which uses the same scripts.
# `make` alone runs the tests.
.DEFAULT_GOAL := test
.PHONY: test lint doccheck tidy breaking generate gencheck k8s build buildcheck vulncheck tools fuzz bench quality ghz run ci

# Both modules of the workspace (go.work): the service and bench/.
test:
	go test -race ./... ./bench/...

tools:
	scripts/tools.sh

lint: tools
	scripts/lint.sh

doccheck:
	scripts/doccheck.sh

# Fails if go.mod/go.sum of ., bench or tools would change under go mod tidy.
tidy:
	scripts/tidycheck.sh

breaking: tools
	scripts/breaking.sh

generate: tools
	PATH="$(CURDIR)/.bin:$$PATH" buf generate

gencheck: tools
	scripts/gencheck.sh

k8s: tools
	scripts/k8scheck.sh

# The release binary, as the Dockerfile builds it: .bin/raiserver.
build:
	scripts/build.sh

buildcheck:
	scripts/buildcheck.sh

vulncheck: tools
	scripts/vulncheck.sh

fuzz:
	FUZZTIME=$${FUZZTIME:-500000x} scripts/fuzz.sh

bench:
	bench/micro.sh

quality:
	go run ./bench/quality

ghz:
	bench/ghz.sh

run:
	go run ./cmd/raiserver

ci:
	bash .ci/run
