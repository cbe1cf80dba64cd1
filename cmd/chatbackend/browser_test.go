package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/openrai/raiserver/client"
)

// findBrowser returns a Chromium-family browser: $CHROME_PATH, or the first
// of the usual names on PATH ("" when there is none).
func findBrowser() string {
	if p := os.Getenv("CHROME_PATH"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestWebPage drives the chat page at / in a real headless browser: a
// benign answer appears whole, a refused prompt and a cut-off answer are
// shown as such, and nothing after the blocked segment reaches the page.
// It takes a screenshot (written to $CHATBACKEND_SCREENSHOT when set).
func TestWebPage(t *testing.T) {
	exe := findBrowser()
	if exe == "" {
		t.Skip("no Chromium-family browser installed (apt-get install chromium, or set CHROME_PATH)")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	tb := startBackend(t, startSidecar(t).addr, nil)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(900, 900),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()

	ask := func(prompt, state string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(
			chromedp.WaitEnabled(chromedp.CSS("#send")),
			chromedp.SendKeys(chromedp.CSS("#prompt"), prompt),
			chromedp.Click(chromedp.CSS("#send")),
			chromedp.WaitVisible(chromedp.CSS(`.msg.assistant[data-state="`+state+`"]`)),
		)
	}
	before := tb.calls()
	err := chromedp.Do(bctx,
		chromedp.Navigate(tb.url+"/"),
		chromedp.WaitVisible(chromedp.CSS("#prompt")),
		ask("a benign question", "done"),
		ask(harmfulPrompt, "refused"),
		ask("tell me a story", "cut-off"),
	)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	logText, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#log")))
	if err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#status")))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(shot)); err != nil {
		t.Errorf("screenshot: %v", err)
	}
	if p := os.Getenv("CHATBACKEND_SCREENSHOT"); p != "" {
		if err := os.WriteFile(p, shot, 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, want := range []string{
		benignAnswer,
		"Prompt refused: " + client.PromptBlockedMessage,
		safePrefix,
		"Answer cut off: " + client.CompletionBlockedMessage,
	} {
		if !strings.Contains(logText, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	if strings.Contains(logText, neverText) || strings.Contains(logText, "kill you") && !strings.Contains(logText, harmfulPrompt) {
		t.Errorf("the page shows text from or after the blocked segment")
	}
	if strings.Count(logText, harmful) != 1 {
		t.Errorf("the blocked sentence appears %d times on the page, want once (the user's own refused prompt)", strings.Count(logText, harmful))
	}
	if status != "The answer was cut off by the content filter." {
		t.Errorf("status line %q", status)
	}
	if got := tb.calls() - before; got != 2 {
		t.Errorf("the model was called %d times, want 2 (not for the refused prompt)", got)
	}
}
