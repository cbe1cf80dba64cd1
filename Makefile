# Developer entry points. CI runs .ci/run, which uses the same scripts.
.PHONY: run test lint generate gencheck tools fuzz bench quality ghz

run:
	go run ./cmd/raiserver

test:
	go test -race ./...

tools:
	scripts/tools.sh

lint: tools
	scripts/lint.sh

generate: tools
	PATH="$(CURDIR)/.bin:$$PATH" buf generate

gencheck: tools
	scripts/gencheck.sh

fuzz:
	FUZZTIME=$${FUZZTIME:-500000x} scripts/fuzz.sh

bench:
	bench/micro.sh

quality:
	go run ./bench/quality

ghz:
	bench/ghz.sh
