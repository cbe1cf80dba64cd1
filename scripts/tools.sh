#!/usr/bin/env bash
# Builds the pinned developer tools into .bin/: buf, staticcheck, kubeconform,
# govulncheck (versions in tools/go.mod), and the repository's own helpers in
# tools/ (k8sschema: Kubernetes JSON Schemas from the OpenAPI spec; vulngate:
# govulncheck's verdict).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bin
(cd tools && GOWORK=off go build -o ../.bin/ \
	github.com/bufbuild/buf/cmd/buf \
	honnef.co/go/tools/cmd/staticcheck \
	github.com/yannh/kubeconform/cmd/kubeconform \
	golang.org/x/vuln/cmd/govulncheck \
	./k8sschema \
	./vulngate)
