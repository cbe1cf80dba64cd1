package client_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openrai/raiserver/server"
)

// docSnippet returns the first ```lang block of docs/integration.md and the
// plain ``` block after it (the output it documents).
func docSnippet(t *testing.T, lang string) (code, output string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "integration.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```.*?```\n(.*?)```")
	m := re.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("no %s block followed by an output block in docs/integration.md", lang)
	}
	return m[1], m[2]
}

// startLoopback serves the real service on a loopback TCP port.
func startLoopback(t *testing.T) string {
	t.Helper()
	a, err := defaultAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewServer(a)
	go srv.Serve(lis)
	t.Cleanup(func() { srv.Shutdown(0) })
	return lis.Addr().String()
}

// runSnippet runs a documented snippet and compares its output with the
// documented one.
func runSnippet(t *testing.T, cmd *exec.Cmd, want string) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(cmd.Path), err, out)
	}
	if got := string(out); got != want {
		t.Errorf("output differs from docs/integration.md:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestDocsNodeSnippet runs the Node.js snippet of docs/integration.md
// against the real server and checks the documented output. It needs node
// and a directory with the two packages installed:
//
//	cd "$(mktemp -d)" && npm install @grpc/grpc-js@1.14.7 @grpc/proto-loader@0.8.1
//	RAI_NODE_DIR="$PWD" go test -run TestDocsNodeSnippet ./client
//
// and skips otherwise.
func TestDocsNodeSnippet(t *testing.T) {
	dir := os.Getenv("RAI_NODE_DIR")
	if dir == "" {
		t.Skip("RAI_NODE_DIR not set (a directory with node_modules/@grpc/grpc-js and node_modules/@grpc/proto-loader)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	code, want := docSnippet(t, "js")
	// The script must sit next to node_modules for node to find the packages.
	name := filepath.Join(dir, "rai-integration-doc.mjs")
	if err := os.WriteFile(name, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(name) })
	proto, err := filepath.Abs(filepath.Join("..", "proto", "rai", "v1", "rai.proto"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(testContext(t), node, name)
	cmd.Env = append(os.Environ(), "RAI_PROTO="+proto, "RAI_ADDR="+startLoopback(t))
	runSnippet(t, cmd, want)
}

// TestDocsPythonSnippet runs the Python snippet of docs/integration.md
// against the real server and checks the documented output. It needs a
// Python with grpcio, and grpcio-tools or protoc with grpc_python_plugin to
// generate the stubs:
//
//	RAI_PYTHON=python3 go test -run TestDocsPythonSnippet ./client
//
// and skips otherwise.
func TestDocsPythonSnippet(t *testing.T) {
	python := os.Getenv("RAI_PYTHON")
	if python == "" {
		t.Skip("RAI_PYTHON not set (a Python interpreter with grpcio)")
	}
	if err := exec.Command(python, "-c", "import grpc").Run(); err != nil {
		t.Skipf("%s cannot import grpc", python)
	}
	code, want := docSnippet(t, "python")
	dir := t.TempDir()
	protoDir, err := filepath.Abs(filepath.Join("..", "proto"))
	if err != nil {
		t.Fatal(err)
	}
	protoFile := filepath.Join(protoDir, "rai", "v1", "rai.proto")
	gen := exec.Command(python, "-m", "grpc_tools.protoc", "-I", protoDir, "--python_out="+dir, "--grpc_python_out="+dir, protoFile)
	if out, err := gen.CombinedOutput(); err != nil {
		protoc, err1 := exec.LookPath("protoc")
		plugin, err2 := exec.LookPath("grpc_python_plugin")
		if err1 != nil || err2 != nil {
			t.Skipf("no grpc_tools (%s) and no protoc with grpc_python_plugin", strings.TrimSpace(string(out)))
		}
		gen = exec.Command(protoc, "-I", protoDir, "--python_out="+dir, "--grpc_python_out="+dir,
			"--plugin=protoc-gen-grpc_python="+plugin, protoFile)
		if out, err := gen.CombinedOutput(); err != nil {
			t.Fatalf("protoc: %v\n%s", err, out)
		}
	}
	name := filepath.Join(dir, "moderate.py")
	if err := os.WriteFile(name, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(testContext(t), python, name)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RAI_ADDR="+startLoopback(t))
	runSnippet(t, cmd, want)
}
