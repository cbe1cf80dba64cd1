package main

import (
	_ "embed"
	"net/http"
)

//go:embed web/index.html
var indexHTML []byte

// webHandler serves the chat page at / (web/index.html: plain HTML and
// JavaScript, embedded, no build step).
func webHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(indexHTML)
	})
}
