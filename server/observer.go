package server

import (
	"time"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// Observer is told what a Service does, for metrics. Its methods are called
// from every stream at once: they must be safe for concurrent use and quick
// (counters and histograms, not I/O). Every argument comes from a small fixed
// set: never text, never message ids.
type Observer interface {
	// StreamStarted is called when a stream is admitted.
	StreamStarted()
	// StreamEnded is called once per admitted stream, when its handler
	// returns, with one of the End* causes.
	StreamEnded(cause string)
	// StreamRejected is called for a stream refused over Limits.MaxStreams
	// (it was never started; its cause is EndRejected).
	StreamRejected()
	// ResultSent is called after an AnalysisResult is handed to gRPC, with
	// its source, whether it is a NoModel result, and which categories it
	// reports blocking.
	ResultSent(src extract.Source, noModel bool, blocking [classifiers.NumCategories]bool)
	// WatermarkSent is called after a Watermark is handed to gRPC. lag runs
	// from the moment the request whose bytes completed the segments it
	// covers (or the half-close, for the last segments) was received.
	WatermarkSent(src extract.Source, lag time.Duration)
	// CompletionSent is called after the Completion is handed to gRPC.
	CompletionSent()
}

// Stream end causes passed to Observer.StreamEnded.
const (
	EndOfStream          = "end_of_stream"      // Completion END_OF_STREAM
	EndInvalidArgument   = "invalid_argument"   // Completion INVALID_ARGUMENT
	EndResourceExhausted = "resource_exhausted" // a stream limit of the analyzer (text bytes, items)
	EndInternalError     = "internal_error"     // Completion INTERNAL_ERROR
	EndShutdown          = "shutdown"           // Completion SHUTDOWN at the drain deadline
	EndIdleTimeout       = "idle_timeout"       // Limits.IdleTimeout
	EndRejected          = "rejected"           // over Limits.MaxStreams at stream start
	EndCanceled          = "canceled"           // the client cancelled or went away; no Completion
	EndSendFailed        = "send_failed"        // sending an event failed; no Completion
)

// EndCauses lists every cause, for metrics that pre-create their series.
var EndCauses = []string{EndOfStream, EndInvalidArgument, EndResourceExhausted, EndInternalError,
	EndShutdown, EndIdleTimeout, EndRejected, EndCanceled, EndSendFailed}

func sourceFromProto(s raiv1.SourceType) extract.Source {
	switch s {
	case raiv1.SourceType_PROMPT:
		return extract.Prompt
	case raiv1.SourceType_COMPLETION:
		return extract.Completion
	}
	return 0
}

// observeSent tells obs about one event after it was sent.
func observeSent(obs Observer, ev *raiv1.AnalyzeResponse, recvAt time.Time) {
	switch e := ev.GetEvent().(type) {
	case *raiv1.AnalyzeResponse_AnalysisResult:
		var blocking [classifiers.NumCategories]bool
		noModel := false
		for _, tr := range e.AnalysisResult.GetHarmCategoryTaskResults() {
			if tr.GetResult() == raiv1.Result_NoModel {
				noModel = true
			}
			if !tr.GetIsBlocking() {
				continue
			}
			hc := tr.GetHarmCategoryTaskResult().GetHarmCategory()
			for c, p := range categoryToProto {
				if p == hc {
					blocking[c] = true
				}
			}
		}
		obs.ResultSent(sourceFromProto(e.AnalysisResult.GetOffset().GetSourceType()), noModel, blocking)
	case *raiv1.AnalyzeResponse_Watermark:
		obs.WatermarkSent(sourceFromProto(e.Watermark.GetSourceType()), time.Since(recvAt))
	case *raiv1.AnalyzeResponse_Completion:
		obs.CompletionSent()
	}
}
