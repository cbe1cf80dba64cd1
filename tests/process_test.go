package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// binary builds cmd/raiserver once per test run (removed in TestMain).
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "raiserver-test-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "raiserver")
		build := exec.Command("go", "build", "-o", binPath, "../cmd/raiserver")
		build.Stderr = os.Stderr
		binErr = build.Run()
	})
	if binErr != nil {
		t.Fatalf("build: %v", binErr)
	}
	return binPath
}

func removeBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// process is a running raiserver binary.
type process struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{} // closed when the process has exited
	err  error         // cmd.Wait's result, set before done is closed
	at   time.Time     // when it exited, set before done is closed
}

// wait waits for the process to exit and returns cmd.Wait's result.
func (p *process) wait() error {
	<-p.done
	return p.err
}

// startBinary runs the binary with --listen on a loopback port and args,
// and waits for its "serving" log line. The process is killed at cleanup if
// it is still running.
func startBinary(t *testing.T, ctx context.Context, args ...string) *process {
	t.Helper()
	bin := binary(t)
	cmd := exec.CommandContext(ctx, bin, append([]string{"--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "RAI_LISTEN=127.0.0.1:1") // the flag wins over the environment
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	lines := bufio.NewScanner(stderr)
	for p.addr == "" && lines.Scan() {
		var rec struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal(lines.Bytes(), &rec) == nil && rec.Msg == "serving" {
			p.addr = rec.Addr
		}
	}
	go func() {
		io.Copy(io.Discard, stderr) // EOF when the process has exited
		p.at = time.Now()
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	if p.addr == "" {
		t.Fatal("server did not log its address")
	}
	return p
}

// TestBinaryServesAndStopsOnSIGTERM builds cmd/raiserver, runs it on its
// embedded defaults with --listen on a loopback port, checks health, and
// stops it with SIGTERM.
func TestBinaryServesAndStopsOnSIGTERM(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startBinary(t, ctx, "--drain-timeout", "2s")
	conn, err := grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	conn.Close()
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v %v", resp, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
}
