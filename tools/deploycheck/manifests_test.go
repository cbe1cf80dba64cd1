package deploycheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// defaultDrain is raiserver's --drain-timeout default (docs/configuration.md),
// used when a manifest does not set RAI_DRAIN_TIMEOUT.
const defaultDrain = 20 * time.Second

// margin is what the grace period must leave after the preStop sleep and the
// drain: the final Completions, the log flush, the exit.
const margin = 5 * time.Second

const deployDir = "../../deploy/kubernetes"

type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		// Deployment
		Replicas *int32 `json:"replicas"`
		Selector struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector"`
		Template struct {
			Metadata struct {
				Labels      map[string]string `json:"labels"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Spec podSpec `json:"spec"`
		} `json:"template"`
		// Service
		ClusterIP   string            `json:"clusterIP"`
		ServiceSel  map[string]string `json:"-"`
		Ports       []servicePort     `json:"ports"`
		MinReplicas *int32            `json:"minReplicas"`
		// HorizontalPodAutoscaler
		ScaleTargetRef struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"scaleTargetRef"`
		// PodDisruptionBudget uses Selector.
	} `json:"spec"`
}

type servicePort struct {
	Name       string `json:"name"`
	Port       int    `json:"port"`
	TargetPort any    `json:"targetPort"`
}

type podSpec struct {
	TerminationGracePeriodSeconds *int64      `json:"terminationGracePeriodSeconds"`
	InitContainers                []container `json:"initContainers"`
	Containers                    []container `json:"containers"`
	SecurityContext               struct {
		RunAsNonRoot *bool `json:"runAsNonRoot"`
	} `json:"securityContext"`
}

type container struct {
	Name          string   `json:"name"`
	Args          []string `json:"args"`
	RestartPolicy string   `json:"restartPolicy"`
	Env           []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"env"`
	Ports []struct {
		Name          string `json:"name"`
		ContainerPort int    `json:"containerPort"`
	} `json:"ports"`
	StartupProbe   *probe `json:"startupProbe"`
	ReadinessProbe *probe `json:"readinessProbe"`
	LivenessProbe  *probe `json:"livenessProbe"`
	Lifecycle      struct {
		PreStop struct {
			Sleep *struct {
				Seconds int64 `json:"seconds"`
			} `json:"sleep"`
		} `json:"preStop"`
	} `json:"lifecycle"`
	Resources struct {
		Requests map[string]any `json:"requests"`
		Limits   map[string]any `json:"limits"`
	} `json:"resources"`
	SecurityContext struct {
		AllowPrivilegeEscalation *bool `json:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   *bool `json:"readOnlyRootFilesystem"`
		Capabilities             struct {
			Drop []string `json:"drop"`
		} `json:"capabilities"`
	} `json:"securityContext"`
}

type probe struct {
	GRPC *struct {
		Port    int     `json:"port"`
		Service *string `json:"service"`
	} `json:"grpc"`
}

// load reads every object of every manifest under dir (recursively).
func load(t *testing.T, dir string) map[string][]object {
	t.Helper()
	byFile := map[string][]object{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for i, doc := range strings.Split("\n"+string(b), "\n---\n") {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			var o object
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil {
				t.Fatalf("%s, document %d: %v", rel, i, err)
			}
			if o.Kind == "Service" {
				var s struct {
					Spec struct {
						Selector map[string]string `json:"selector"`
					} `json:"spec"`
				}
				if err := yaml.Unmarshal([]byte(doc), &s); err != nil {
					t.Fatal(err)
				}
				o.Spec.ServiceSel = s.Spec.Selector
			}
			byFile[rel] = append(byFile[rel], o)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(byFile) == 0 {
		t.Fatalf("no manifests in %s", dir)
	}
	return byFile
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func find(objs map[string][]object, kind string) []object {
	var out []object
	for _, f := range objs {
		for _, o := range f {
			if o.Kind == kind {
				out = append(out, o)
			}
		}
	}
	return out
}

// raiserverOf returns the pod's raiserver container and whether it is a
// native sidecar (an init container).
func raiserverOf(p podSpec) (container, bool, bool) {
	for _, c := range p.Containers {
		if c.Name == "raiserver" {
			return c, false, true
		}
	}
	for _, c := range p.InitContainers {
		if c.Name == "raiserver" {
			return c, true, true
		}
	}
	return container{}, false, false
}

func TestRaiserverPods(t *testing.T) {
	objs := load(t, deployDir)
	deployments := find(objs, "Deployment")
	if len(deployments) < 2 {
		t.Fatalf("%d Deployments; want the scaled-out service and the sidecar variant", len(deployments))
	}
	sidecars := 0
	for _, d := range deployments {
		t.Run(d.Metadata.Name, func(t *testing.T) {
			pod := d.Spec.Template.Spec
			c, isSidecar, ok := raiserverOf(pod)
			if !ok {
				t.Fatal("no raiserver container")
			}
			if isSidecar {
				sidecars++
				if c.RestartPolicy != "Always" {
					t.Errorf("raiserver is an init container without restartPolicy: Always, so not a sidecar")
				}
			}

			drain := defaultDrain
			for _, e := range c.Env {
				if e.Name == "RAI_DRAIN_TIMEOUT" {
					v, err := time.ParseDuration(e.Value)
					if err != nil {
						t.Fatalf("RAI_DRAIN_TIMEOUT %q: %v", e.Value, err)
					}
					drain = v
				}
			}
			var preStop time.Duration
			if s := c.Lifecycle.PreStop.Sleep; s != nil {
				preStop = time.Duration(s.Seconds) * time.Second
			}
			if pod.TerminationGracePeriodSeconds == nil {
				t.Fatal("no terminationGracePeriodSeconds")
			}
			grace := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
			if need := preStop + drain + margin; grace < need {
				t.Errorf("terminationGracePeriodSeconds %v < preStop %v + drain %v + %v", grace, preStop, drain, margin)
			}

			if p := c.ReadinessProbe; p == nil || p.GRPC == nil || p.GRPC.Port != 50051 || p.GRPC.Service == nil || *p.GRPC.Service != "rai.v1.AnalysisService" {
				t.Error("readiness is not a gRPC probe of rai.v1.AnalysisService on 50051")
			}
			for name, p := range map[string]*probe{"liveness": c.LivenessProbe, "startup": c.StartupProbe} {
				if p == nil || p.GRPC == nil || p.GRPC.Port != 50051 {
					t.Errorf("%s is not a gRPC probe on 50051", name)
				}
			}

			if !slices.Contains(c.Args, "--metrics-listen=:9090") {
				t.Errorf("args %q lack --metrics-listen=:9090", c.Args)
			}
			ann := d.Spec.Template.Metadata.Annotations
			if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] != "9090" || ann["prometheus.io/path"] != "/metrics" {
				t.Errorf("scrape annotations %v do not name port 9090 and /metrics", ann)
			}
			hasPort := map[int]bool{}
			for _, p := range c.Ports {
				hasPort[p.ContainerPort] = true
			}
			if !hasPort[50051] || !hasPort[9090] {
				t.Errorf("container ports %v lack 50051 or 9090", c.Ports)
			}

			if pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
				t.Error("pod does not require runAsNonRoot")
			}
			sc := c.SecurityContext
			if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
				sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
				!slices.Contains(sc.Capabilities.Drop, "ALL") {
				t.Error("container is not hardened (no privilege escalation, read-only root, drop ALL)")
			}
			if c.Resources.Requests["cpu"] == nil || c.Resources.Requests["memory"] == nil || c.Resources.Limits["memory"] == nil {
				t.Error("cpu and memory requests and a memory limit are required")
			}
		})
	}
	if sidecars != 1 {
		t.Errorf("%d sidecar variants, want 1", sidecars)
	}
}

func TestScaledOutService(t *testing.T) {
	objs := load(t, deployDir)
	var svc object
	for _, d := range find(objs, "Deployment") {
		if _, isSidecar, _ := raiserverOf(d.Spec.Template.Spec); !isSidecar {
			svc = d
		}
	}
	if svc.Metadata.Name == "" {
		t.Fatal("no scaled-out Deployment")
	}
	labels := svc.Spec.Template.Metadata.Labels
	selects := func(sel map[string]string) bool {
		if len(sel) == 0 {
			return false
		}
		for k, v := range sel {
			if labels[k] != v {
				return false
			}
		}
		return true
	}
	if !selects(svc.Spec.Selector.MatchLabels) {
		t.Error("the Deployment's selector does not match its pod labels")
	}
	if svc.Spec.Replicas != nil {
		t.Error("the Deployment sets replicas, which the HorizontalPodAutoscaler owns")
	}

	headless := 0
	for _, s := range find(objs, "Service") {
		if s.Spec.ClusterIP != "None" || !selects(s.Spec.ServiceSel) {
			continue
		}
		for _, p := range s.Spec.Ports {
			if p.Port == 50051 {
				headless++
			}
		}
	}
	if headless != 1 {
		t.Errorf("%d headless Services on port 50051 select the pods, want 1", headless)
	}

	hpas := find(objs, "HorizontalPodAutoscaler")
	if len(hpas) != 1 || hpas[0].Spec.ScaleTargetRef.Kind != "Deployment" || hpas[0].Spec.ScaleTargetRef.Name != svc.Metadata.Name {
		t.Errorf("want one HorizontalPodAutoscaler of Deployment %s", svc.Metadata.Name)
	} else if m := hpas[0].Spec.MinReplicas; m == nil || *m < 2 {
		t.Error("the HorizontalPodAutoscaler allows fewer than 2 replicas")
	}

	pdbs := find(objs, "PodDisruptionBudget")
	if len(pdbs) != 1 || !selects(pdbs[0].Spec.Selector.MatchLabels) {
		t.Error("want one PodDisruptionBudget that selects the Deployment's pods")
	}
}
