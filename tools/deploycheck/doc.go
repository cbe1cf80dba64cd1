// Package deploycheck holds tests of the Kubernetes manifests in
// deploy/kubernetes beyond their schemas (scripts/k8scheck.sh runs
// kubeconform for those): the rules a raiserver deployment relies on. The
// termination grace period covers the preStop sleep and the drain timeout,
// readiness asks the gRPC health service for rai.v1.AnalysisService, the
// metrics port and the scrape annotations agree, the containers run
// hardened, the Service is headless and selects the Deployment's pods, the
// HorizontalPodAutoscaler and the PodDisruptionBudget point at them, and the
// sidecar is a native sidecar. TestScrapeConfig applies the relabelling
// rules of deploy/prometheus/scrape-config.yaml to a pod of the Deployment
// and checks that its metrics port, and only that, is scraped.
//
// Dependencies (test code only): sigs.k8s.io/yaml to read the manifests into
// the few fields checked, and the standard library; no Kubernetes or
// Prometheus library.
package deploycheck
