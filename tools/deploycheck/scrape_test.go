package deploycheck

import (
	"os"
	"regexp"
	"testing"

	"sigs.k8s.io/yaml"
)

type relabel struct {
	SourceLabels []string `json:"source_labels"`
	Action       string   `json:"action"`
	Regex        *string  `json:"regex"`
	Replacement  *string  `json:"replacement"`
	TargetLabel  string   `json:"target_label"`
}

// TestScrapeConfig reads deploy/prometheus/scrape-config.yaml as Prometheus
// would in the parts that matter: one raiserver job on pod discovery, every
// relabel regex valid RE2 (Prometheus anchors it), and the rules applied to
// a pod of deployment.yaml keep its metrics port and only that.
func TestScrapeConfig(t *testing.T) {
	b, err := os.ReadFile("../../deploy/prometheus/scrape-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		ScrapeConfigs []struct {
			JobName             string `json:"job_name"`
			ScrapeInterval      string `json:"scrape_interval"`
			KubernetesSDConfigs []struct {
				Role string `json:"role"`
			} `json:"kubernetes_sd_configs"`
			RelabelConfigs []relabel `json:"relabel_configs"`
		} `json:"scrape_configs"`
	}
	if err := yaml.UnmarshalStrict(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.ScrapeConfigs) != 1 || cfg.ScrapeConfigs[0].JobName != "raiserver" {
		t.Fatalf("want one job named raiserver (the alerts select job=\"raiserver\")")
	}
	job := cfg.ScrapeConfigs[0]
	if len(job.KubernetesSDConfigs) != 1 || job.KubernetesSDConfigs[0].Role != "pod" {
		t.Fatal("want kubernetes_sd_configs with role: pod")
	}

	pod := func(port string) map[string]string {
		return map[string]string{
			"__address__": "10.1.2.3:" + port,
			"__meta_kubernetes_pod_annotation_prometheus_io_scrape": "true",
			"__meta_kubernetes_pod_annotation_prometheus_io_port":   "9090",
			"__meta_kubernetes_pod_annotation_prometheus_io_path":   "/metrics",
			"__meta_kubernetes_pod_container_port_number":           port,
			"__meta_kubernetes_namespace":                           "rai",
			"__meta_kubernetes_pod_name":                            "raiserver-0",
			"__meta_kubernetes_pod_label_app_kubernetes_io_name":    "raiserver",
		}
	}
	grpcTarget, kept := apply(t, job.RelabelConfigs, pod("50051"))
	if kept {
		t.Errorf("the gRPC port's target is kept: %v", grpcTarget)
	}
	got, kept := apply(t, job.RelabelConfigs, pod("9090"))
	if !kept {
		t.Fatal("the metrics port's target is dropped")
	}
	for k, want := range map[string]string{"__address__": "10.1.2.3:9090", "__metrics_path__": "/metrics", "namespace": "rai", "pod": "raiserver-0", "app": "raiserver"} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
}

// apply runs the keep and replace rules the way Prometheus does (defaults:
// separator ";", regex "(.*)", replacement "$1", action replace).
func apply(t *testing.T, rules []relabel, labels map[string]string) (map[string]string, bool) {
	t.Helper()
	out := map[string]string{}
	for k, v := range labels {
		out[k] = v
	}
	for _, r := range rules {
		expr := "(.*)"
		if r.Regex != nil {
			expr = *r.Regex
		}
		re, err := regexp.Compile("^(?:" + expr + ")$")
		if err != nil {
			t.Fatalf("regex %q: %v", expr, err)
		}
		val := ""
		for i, l := range r.SourceLabels {
			if i > 0 {
				val += ";"
			}
			val += out[l]
		}
		switch r.Action {
		case "keep":
			if !re.MatchString(val) {
				return out, false
			}
		case "", "replace":
			m := re.FindStringSubmatchIndex(val)
			if m == nil {
				continue
			}
			repl := "$1"
			if r.Replacement != nil {
				repl = *r.Replacement
			}
			out[r.TargetLabel] = string(re.ExpandString(nil, repl, val, m))
		default:
			t.Fatalf("action %q not modelled here", r.Action)
		}
	}
	return out, true
}
