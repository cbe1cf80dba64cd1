package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/extract"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// Service implements raiv1.AnalysisServiceServer on top of an analyzer.Analyzer.
//
// Each stream runs two goroutines: the receive loop reads requests, analyzes
// them and hands event batches to the send loop (the handler goroutine)
// through a bounded channel. Events are never dropped: a slow client slows the
// receive loop down (back-pressure), it does not lose results. No lock is held
// across Send and no message is reused after Send.
type Service struct {
	raiv1.UnimplementedAnalysisServiceServer

	a      *analyzer.Analyzer
	log    *slog.Logger
	depth  int
	limits Limits
	obs    Observer
	nextID atomic.Uint64
	active atomic.Int64

	// drain is closed when the drain deadline has passed: open streams then
	// end with a SHUTDOWN Completion and status UNAVAILABLE.
	drainOnce sync.Once
	drain     chan struct{}
	streams   sync.WaitGroup
}

// New returns a Service that analyzes with a.
func New(a *analyzer.Analyzer, opts ...Option) *Service {
	o := defaultOptions()
	for _, f := range opts {
		f(&o)
	}
	return newService(a, &o)
}

func newService(a *analyzer.Analyzer, o *options) *Service {
	return &Service{a: a, log: o.log, depth: o.depth, limits: o.limits, obs: o.observer, drain: make(chan struct{})}
}

// Register registers the service on gs.
func (s *Service) Register(gs *grpc.Server) { raiv1.RegisterAnalysisServiceServer(gs, s) }

// Drain ends every open stream with a SHUTDOWN Completion and status
// UNAVAILABLE, after delivering what it has already analyzed. Call it when
// the drain deadline passes. It is idempotent.
func (s *Service) Drain() { s.drainOnce.Do(func() { close(s.drain) }) }

// Wait blocks until every stream handler has returned.
func (s *Service) Wait() { s.streams.Wait() }

// ActiveStreams returns the number of streams open now.
func (s *Service) ActiveStreams() int { return int(s.active.Load()) }

// batch is what the receive loop hands to the send loop: events, or the end
// of the stream with its reason.
type batch struct {
	events []*raiv1.AnalyzeResponse
	end    *streamEnd
	// recvAt is when the request that produced the batch (or the half-close)
	// was received; set only when there is an Observer.
	recvAt time.Time
}

type streamEnd struct {
	reason raiv1.EndReason
	desc   string
	code   codes.Code
	cause  string // an End* cause, for the Observer
}

// streamState is what a stream's two loops share.
type streamState struct {
	id     uint64
	stream raiv1.AnalysisService_AnalyzeServer
	start  time.Time
	ch     chan batch

	// busy is set while the receive loop holds a request it has read and not
	// yet queued the events of (after io.EOF: until the end is queued).
	// Clearing it also puts a token in waiting, for a send loop that waits
	// for that request in endEarly. stopping tells the receive loop to take
	// no further request.
	busy     atomic.Bool
	waiting  chan struct{}
	stopping atomic.Bool
	// lastRecv is when the last request was received, as time since start.
	lastRecv atomic.Int64

	// Send loop only.
	sent  int    // events sent
	cause string // how the stream ended, for the Observer
}

func (st *streamState) setIdle() {
	st.busy.Store(false)
	select {
	case st.waiting <- struct{}{}:
	default:
	}
}

// Analyze implements the bidirectional stream.
func (s *Service) Analyze(stream raiv1.AnalysisService_AnalyzeServer) error {
	s.streams.Add(1)
	defer s.streams.Done()
	st := &streamState{
		id:      s.nextID.Add(1),
		stream:  stream,
		start:   time.Now(),
		ch:      make(chan batch, s.depth),
		waiting: make(chan struct{}, 1),
		cause:   EndCanceled,
	}
	if n := s.active.Add(1); s.limits.MaxStreams > 0 && n > int64(s.limits.MaxStreams) {
		s.active.Add(-1)
		return s.reject(st)
	}
	defer s.active.Add(-1)
	if s.obs != nil {
		s.obs.StreamStarted()
		defer func() { s.obs.StreamEnded(st.cause) }()
	}

	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	go s.recvLoop(ctx, st)

	var idle <-chan time.Time
	var idleTimer *time.Timer
	if d := s.limits.IdleTimeout; d > 0 {
		idleTimer = time.NewTimer(d)
		defer idleTimer.Stop()
		idle = idleTimer.C
	}
	for {
		select {
		case b := <-st.ch:
			if done, err := s.deliver(st, b); done {
				return err
			}
		case <-s.drain:
			return s.endEarly(ctx, st, &streamEnd{
				reason: raiv1.EndReason_END_REASON_SHUTDOWN,
				desc:   "server shutting down: drain deadline passed before the stream ended",
				code:   codes.Unavailable,
				cause:  EndShutdown,
			})
		case <-idle:
			if left := s.idleLeft(st); left > 0 {
				idleTimer.Reset(left)
				continue
			}
			return s.endEarly(ctx, st, &streamEnd{
				reason: raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED,
				desc:   fmt.Sprintf("stream idle timeout: no request for %v", s.limits.IdleTimeout),
				code:   codes.ResourceExhausted,
				cause:  EndIdleTimeout,
			})
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
}

// reject ends a stream over Limits.MaxStreams before reading from it.
func (s *Service) reject(st *streamState) error {
	err := s.complete(st, &streamEnd{
		reason: raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED,
		desc: fmt.Sprintf("server at its limit of %d concurrent streams: retry later or on another replica",
			s.limits.MaxStreams),
		code:  codes.ResourceExhausted,
		cause: EndRejected,
	})
	if s.obs != nil {
		s.obs.StreamRejected()
	}
	return err
}

// idleLeft returns how much longer the stream may stay idle: the idle
// timeout counts from the last request received, and not while the receive
// loop is analyzing one.
func (s *Service) idleLeft(st *streamState) time.Duration {
	if st.busy.Load() {
		return s.limits.IdleTimeout
	}
	since := time.Since(st.start) - time.Duration(st.lastRecv.Load())
	return s.limits.IdleTimeout - since
}

// deliver sends the events of b and, if b ends the stream, its Completion.
// done reports that the stream is over and the handler returns err.
func (s *Service) deliver(st *streamState, b batch) (done bool, err error) {
	for _, ev := range b.events {
		if err := st.stream.Send(ev); err != nil {
			s.log.Info("stream send failed", "stream", st.id, "events_sent", st.sent, "err", err)
			st.cause = EndSendFailed
			return true, err
		}
		st.sent++
		if s.obs != nil {
			observeSent(s.obs, ev, b.recvAt)
		}
	}
	if b.end != nil {
		return true, s.complete(st, b.end)
	}
	return false, nil
}

// endEarly ends a stream that has not ended by itself (the drain deadline
// passed, or the idle timeout) without losing anything the receive loop
// already has: it delivers every queued batch and waits for the request the
// receive loop is analyzing, if any, then sends forced as the one
// Completion. An end the receive loop has already decided (END_OF_STREAM
// after the client half-closed, or an error) is delivered instead of forced.
// Requests read after this point are not analyzed.
func (s *Service) endEarly(ctx context.Context, st *streamState, forced *streamEnd) error {
	st.stopping.Store(true)
	for {
		// busy is read before ch: the receive loop queues a batch before it
		// clears busy, so a batch made before busy was seen clear is in ch.
		idle := !st.busy.Load()
		select {
		case b := <-st.ch:
			if done, err := s.deliver(st, b); done {
				return err
			}
			continue
		default:
		}
		if idle {
			return s.complete(st, forced)
		}
		select {
		case b := <-st.ch:
			if done, err := s.deliver(st, b); done {
				return err
			}
		case <-st.waiting:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
}

// complete sends the one Completion of the stream and returns its status.
func (s *Service) complete(st *streamState, end *streamEnd) error {
	c := &raiv1.Completion{EndReason: end.reason, ErrorDescription: &end.desc}
	err := st.stream.Send(&raiv1.AnalyzeResponse{Event: &raiv1.AnalyzeResponse_Completion{Completion: c}})
	st.cause = end.cause
	if err != nil {
		st.cause = EndSendFailed
	} else if s.obs != nil {
		s.obs.CompletionSent()
	}
	level := slog.LevelInfo
	if end.code != codes.OK {
		level = slog.LevelWarn
	}
	s.log.Log(st.stream.Context(), level, "stream end", "stream", st.id, "reason", end.reason.String(),
		"code", end.code.String(), "events_sent", st.sent+1, "duration", time.Since(st.start))
	if err != nil {
		return err
	}
	if end.code == codes.OK {
		return nil
	}
	return status.Error(end.code, end.desc)
}

// recvLoop reads and analyzes requests until the client half-closes, a
// request is bad, or ctx ends. It always ends by sending a batch with end set,
// unless ctx ended first or the send loop stopped taking requests.
func (s *Service) recvLoop(ctx context.Context, st *streamState) {
	defer st.setIdle() // runs last, after any end batch is queued
	id, stream := st.id, st.stream
	sess := s.a.NewSession()
	var evs []analyzer.Event
	put := func(b batch) bool {
		select {
		case st.ch <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	index := 0
	defer func() {
		// A bug in a classifier must cost one stream, not the server.
		if r := recover(); r != nil {
			s.log.Error("analysis panicked", "stream", id, "request", index, "panic", fmt.Sprintf("%T", r))
			put(batch{end: &streamEnd{
				reason: raiv1.EndReason_END_REASON_INTERNAL_ERROR,
				desc:   fmt.Sprintf("request %d: internal error", index),
				code:   codes.Internal,
				cause:  EndInternalError,
			}})
		}
	}()
	for ; ; index++ {
		st.setIdle()
		req, err := stream.Recv()
		st.busy.Store(true)
		st.lastRecv.Store(int64(time.Since(st.start)))
		if st.stopping.Load() {
			// The stream is being ended early; this request came too late.
			return
		}
		var recvAt time.Time
		if s.obs != nil {
			recvAt = time.Now()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				evs = sess.Finish(evs[:0])
				put(batch{events: toProto(s.a, evs), recvAt: recvAt,
					end: &streamEnd{reason: raiv1.EndReason_END_REASON_END_OF_STREAM, code: codes.OK, cause: EndOfStream}})
				return
			}
			// The client went away or cancelled, or the transport refused a
			// message over its size limit (grpc-go then ends the stream with
			// RESOURCE_EXHAUSTED itself); nobody is left to tell.
			s.log.Debug("stream receive ended", "stream", id, "requests", index, "err", err)
			return
		}
		evs, err = sess.Process(evs[:0], req.GetApiName(), req.GetSourceType(), []byte(req.GetPayload()))
		if err != nil {
			end := errorEnd(index, err)
			s.log.Warn("bad request", "stream", id, "request", index, "payload_bytes", len(req.GetPayload()), "err", end.desc)
			evs = sess.Finish(evs[:0])
			put(batch{events: toProto(s.a, evs), end: end, recvAt: recvAt})
			return
		}
		if len(evs) > 0 && !put(batch{events: toProto(s.a, evs), recvAt: recvAt}) {
			return
		}
	}
}

// errorEnd chooses the end reason and status code of a failed request. It is
// the one place where analyzer and extract errors become gRPC codes.
func errorEnd(index int, err error) *streamEnd {
	end := &streamEnd{
		reason: raiv1.EndReason_END_REASON_INVALID_ARGUMENT,
		desc:   fmt.Sprintf("request %d: %v", index, err),
		code:   codes.InvalidArgument,
		cause:  EndInvalidArgument,
	}
	switch {
	case errors.Is(err, analyzer.ErrLimit):
		end.reason, end.code, end.cause = raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED, codes.ResourceExhausted, EndResourceExhausted
	case errors.Is(err, analyzer.ErrUnknownAPI), errors.Is(err, analyzer.ErrUnknownSource),
		errors.Is(err, analyzer.ErrTooLarge), errors.Is(err, extract.ErrInvalidJSON), errors.Is(err, extract.ErrShape):
	default:
		end.reason, end.code, end.cause = raiv1.EndReason_END_REASON_INTERNAL_ERROR, codes.Internal, EndInternalError
	}
	return end
}
