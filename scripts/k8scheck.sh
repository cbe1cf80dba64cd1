#!/usr/bin/env bash
# Validates the Kubernetes manifests in deploy/kubernetes offline, with
# kubeconform in strict mode (unknown fields are errors), against the
# Kubernetes API schemas of the oldest and the newest Kubernetes release the
# manifests are meant for. Needs scripts/tools.sh first.
#
# The schemas come from the OpenAPI v3 documents in the k8s.io/kubernetes Go
# module (api/openapi-spec/v3), fetched through the Go module proxy and
# turned into kubeconform's per-kind JSON Schemas by tools/k8sschema. Nothing
# is fetched from anywhere else. Then a set of broken manifests
# (tools/k8sschema/testdata/invalid) must each be rejected, so a schema that
# accepts everything cannot pass for a green check.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.bin:$PATH"
# 1.33: native sidecar containers are GA; the newest: nothing used is removed.
K8S_VERSIONS="${K8S_VERSIONS:-1.33.13 1.37.2}"
schemas="$PWD/.bin/k8s-schemas"
manifests="$(find deploy/kubernetes -name '*.yaml' | sort)"

# The schema generator's tests, and the rules beyond the schemas
# (tools/deploycheck: grace period covers preStop + drain, gRPC readiness,
# metrics port and scrape annotations, hardening, Service/HPA/PDB wiring).
(cd tools && GOWORK=off go test -count=1 ./k8sschema ./deploycheck)

for v in $K8S_VERSIONS; do
	dir="$(cd "$(mktemp -d)" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@v$v" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
	if [ -z "$dir" ] || [ ! -d "$dir/api/openapi-spec/v3" ]; then
		echo "k8scheck: k8s.io/kubernetes@v$v has no api/openapi-spec/v3"; exit 1
	fi
	out="$schemas/v$v-standalone-strict"
	rm -rf "$out"
	k8sschema -spec "$dir/api/openapi-spec/v3" -out "$out"
	loc="$schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
	echo "-- Kubernetes $v: deploy/kubernetes"
	# shellcheck disable=SC2086
	kubeconform -strict -summary -kubernetes-version "$v" -schema-location "$loc" $manifests
	for bad in tools/k8sschema/testdata/invalid/*.yaml; do
		if kubeconform -strict -kubernetes-version "$v" -schema-location "$loc" "$bad" >/dev/null 2>&1; then
			echo "k8scheck: $bad passed validation against Kubernetes $v; it must not"; exit 1
		fi
	done
	echo "-- Kubernetes $v: $(ls tools/k8sschema/testdata/invalid/*.yaml | wc -l) broken manifests rejected"
done
echo "k8s manifests valid"
