package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/openrai/raiserver/extract"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// Release is streamed text that may be shown to the user now.
type Release struct {
	Item Item
	// Offset is the UTF-8 byte offset of Text in the item's text: releases
	// of one item are contiguous, each starting where the previous ended.
	Offset int
	Text   string
	// Unchecked says the service did not analyze Text: it became
	// unavailable and the fail mode is FailOpen.
	Unchecked bool
}

// Gate holds streamed model output back until the service has analyzed it.
//
// Feed it the raw chunk payloads of one model response with Send (chat
// completion chunks, completions chunks, Realtime server events, image
// stream events: the API the gate was opened for), in the order the model
// produced them, then CloseSend. Read the text that may be shown with Recv:
// per item, the text up to the service's watermark, which is never inside a
// harmful segment. The gate extracts each chunk's text itself, with the same
// rules as the service (package extract), so that it knows the bytes a
// watermark offset points into.
//
// On the first blocking result the gate stops for good: Recv returns what is
// still releasable (for the blocked item, the text before the blocking
// segment) and then a *BlockedError saying why; Send returns the same error,
// so the producer stops reading the model. Text after the block is never
// released.
//
// After CloseSend, Recv releases the rest once the service's final
// watermarks and its Completion arrive, and then returns io.EOF.
//
// When the service is unreachable or too slow (see WithTimeout), the gate
// applies the fail mode: FailClosed returns an error wrapping ErrUnavailable
// from Recv and Send once the text already analyzed is released; FailOpen
// releases all text received so far and from then on everything Send is
// given, as Unchecked releases, and Recv ends with io.EOF after CloseSend.
//
// Concurrency: Send and CloseSend may be called from one goroutine while
// Recv is called from another (the usual shape: one goroutine reads the
// model, the handler writes releases to the user); Verdict and Close may be
// called from any goroutine. Close the gate when done; it ends the stream.
type Gate struct {
	c      *Client
	api    API
	xapi   extract.API
	parent context.Context
	ctx    context.Context // the stream's; Close and the watchdogs cancel it
	cancel context.CancelFunc
	stream raiv1.AnalysisService_AnalyzeClient // nil when opening failed
	done   chan struct{}                       // closed when the receive loop ends

	sendMu sync.Mutex // serializes Send and CloseSend
	ex     *extract.Stream
	pieces []extract.Piece

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced on every state change
	t          *tally
	items      map[Item]*gateItem
	order      []*gateItem
	block      *Block
	err        error // terminal: ErrUnavailable, ErrRejected or ErrClosed wrapped
	ended      bool  // the Completion and status OK arrived
	sendClosed bool
	finalTimer *time.Timer
}

// gateItem is the gate's copy of an item's text and how far it may go. Its
// text is kept from the first byte not yet released on.
type gateItem struct {
	item     Item
	text     extract.Text
	mark     int // released up to here as checked: watermark, or the block's start
	released int
}

// NewGate opens a stream for one model response in api's format. It returns
// an error only for an unknown api or when ctx ends while the stream opens;
// a service that cannot be reached within the timeout gives a gate that
// applies the fail mode.
func (c *Client) NewGate(ctx context.Context, api API) (*Gate, error) {
	xapi, ok := extract.ParseAPI(string(api))
	if !ok {
		return nil, fmt.Errorf("client: unknown API %q", api)
	}
	g := &Gate{
		c: c, api: api, xapi: xapi, parent: ctx,
		done:    make(chan struct{}),
		ex:      extract.NewStream(),
		changed: make(chan struct{}),
		t:       newTally(),
		items:   map[Item]*gateItem{},
	}
	g.ctx, g.cancel = context.WithCancel(ctx)

	type opened struct {
		s   raiv1.AnalysisService_AnalyzeClient
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		s, err := c.rpc.Analyze(g.ctx)
		ch <- opened{s, err}
	}()
	timer := time.NewTimer(c.cfg.timeout)
	defer timer.Stop()
	var o opened
	select {
	case o = <-ch:
	case <-timer.C:
		g.cancel()
		o = <-ch
		o.err = fmt.Errorf("%w: stream not open after %v", ErrUnavailable, c.cfg.timeout)
	}
	if ctx.Err() != nil {
		g.cancel()
		return nil, ctx.Err()
	}
	if o.err != nil {
		g.cancel()
		close(g.done)
		g.fail(endError(nil, o.err))
		return g, nil
	}
	g.stream = o.s
	go g.recvLoop()
	return g, nil
}

// recvLoop reads the service's events until the stream ends.
func (g *Gate) recvLoop() {
	defer close(g.done)
	for {
		ev, err := g.stream.Recv()
		if err != nil {
			g.mu.Lock()
			end := endError(g.t.done, err)
			if g.finalTimer != nil {
				g.finalTimer.Stop()
			}
			g.mu.Unlock()
			if g.parent.Err() != nil || status.Code(err) == codes.DeadlineExceeded {
				// The caller gave up (the stream's only deadline is the
				// caller's; the gate's own timers cancel): not the service's
				// failure, so the fail mode does not apply.
				cause := g.parent.Err()
				if cause == nil {
					cause = context.DeadlineExceeded
				}
				g.fail(cause)
				return
			}
			if end == nil {
				g.mu.Lock()
				g.ended = true
				g.broadcast()
				g.mu.Unlock()
				return
			}
			g.fail(end)
			return
		}
		g.mu.Lock()
		r, first := g.t.add(ev)
		if r != nil && ev.GetWatermark() != nil {
			if it := g.items[r.Item]; it != nil && g.block == nil && g.err == nil {
				it.mark = min(max(it.mark, r.Watermark), it.text.Len())
			}
		}
		if first != nil && g.block == nil && g.err == nil {
			b := *first
			g.block = &b
			// Every segment of the item before the blocking one was analyzed
			// (segments are analyzed in order) and none of them blocked.
			if it := g.items[b.Item]; it != nil {
				it.mark = min(max(it.mark, b.Start), it.text.Len())
			}
		}
		g.broadcast()
		g.mu.Unlock()
	}
}

// fail records err as the gate's terminal error unless it already stopped.
func (g *Gate) fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.block == nil && g.err == nil {
		g.err = err
		g.broadcast()
	}
}

func (g *Gate) broadcast() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// failedOpen says the service is gone and the fail mode releases unchecked
// text. g.mu must be held.
func (g *Gate) failedOpen() bool {
	return g.block == nil && g.c.cfg.failMode == FailOpen && errors.Is(g.err, ErrUnavailable)
}

// stopErr is the error Send returns: the block, or a terminal error that the
// fail mode does not excuse. g.mu must be held.
func (g *Gate) stopErr() error {
	switch {
	case g.block != nil:
		return &BlockedError{Block: *g.block}
	case g.err != nil && !g.failedOpen():
		return g.err
	}
	return nil
}

// Send extracts the text of one model chunk, keeps it for release, and
// forwards the chunk to the service as a COMPLETION request. It returns a
// *BlockedError once the gate has stopped on a blocking result, an error
// wrapping ErrUnavailable once the service is gone under FailClosed, and an
// error wrapping ErrRejected for a chunk that is not a payload of the gate's
// API (the chunk is then dropped; the gate goes on).
func (g *Gate) Send(chunk []byte) error {
	g.sendMu.Lock()
	defer g.sendMu.Unlock()
	var err error
	g.pieces, err = g.ex.Extract(g.pieces[:0], g.xapi, extract.Completion, chunk)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRejected, err)
	}
	g.mu.Lock()
	if g.sendClosed {
		g.mu.Unlock()
		return fmt.Errorf("client: Send after CloseSend")
	}
	if err := g.stopErr(); err != nil {
		g.mu.Unlock()
		return err
	}
	for i := range g.pieces {
		g.apply(&g.pieces[i])
	}
	live := g.err == nil && g.stream != nil
	g.broadcast()
	g.mu.Unlock()
	if !live {
		return nil // failed open: the text is released unchecked
	}

	watchdog := time.AfterFunc(g.c.cfg.timeout, func() {
		g.fail(fmt.Errorf("%w: a send took longer than %v", ErrUnavailable, g.c.cfg.timeout))
		g.cancel()
	})
	err = g.stream.Send(&raiv1.AnalyzeRequest{SourceType: string(Completion), ApiName: string(g.api), Payload: string(chunk)})
	watchdog.Stop()
	if err != nil {
		// The stream has ended; the receive loop learns why.
		<-g.done
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stopErr()
}

// apply adds one extracted piece to its item, as the service does (a Full
// piece adds only what extends the item's text). g.mu must be held.
func (g *Gate) apply(p *extract.Piece) {
	if p.NoModel || p.Text == "" {
		return
	}
	k := Item{Source: Source(p.Key.Source.String()), MessageID: p.Key.MessageID, ContentIndex: p.Key.ContentIndex}
	it := g.items[k]
	if it == nil {
		it = &gateItem{item: k, text: extract.NewText(g.xapi)}
		g.items[k] = it
		g.order = append(g.order, it)
	}
	it.text.Add(p)
}

// CloseSend says the model response is complete. The service then analyzes
// what is left and sends its final watermarks, which must arrive within the
// timeout (else the fail mode applies).
func (g *Gate) CloseSend() error {
	g.sendMu.Lock()
	defer g.sendMu.Unlock()
	g.mu.Lock()
	if g.sendClosed {
		g.mu.Unlock()
		return nil
	}
	g.sendClosed = true
	live := g.err == nil && g.block == nil && g.stream != nil
	if live {
		g.finalTimer = time.AfterFunc(g.c.cfg.timeout, func() {
			g.fail(fmt.Errorf("%w: no final watermarks %v after the end of the response", ErrUnavailable, g.c.cfg.timeout))
			g.cancel()
		})
	}
	g.broadcast()
	g.mu.Unlock()
	if g.stream != nil {
		return g.stream.CloseSend()
	}
	return nil
}

// Recv returns the next text that may be released: for one item, all of its
// text the service has cleared and that was not returned yet. It blocks
// until there is some or the gate ends. At the end it returns io.EOF (all
// text released), a *BlockedError (stopped by a blocking result), an error
// wrapping ErrUnavailable (the service is gone, FailClosed) or ErrRejected,
// ErrClosed after Close, or the context's error when the gate's context
// ends. Once Recv returns an error it returns it again on every call.
func (g *Gate) Recv() (Release, error) {
	for {
		g.mu.Lock()
		if r, ok := g.next(); ok {
			g.mu.Unlock()
			return r, nil
		}
		if err := g.endErr(); err != nil {
			g.mu.Unlock()
			return Release{}, err
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-g.parent.Done():
			return Release{}, g.parent.Err()
		}
	}
}

// next returns the first item's releasable text. g.mu must be held.
func (g *Gate) next() (Release, bool) {
	open := g.failedOpen()
	for _, it := range g.order {
		if it.mark > it.released {
			r := Release{Item: it.item, Offset: it.released, Text: string(it.text.Slice(it.released, it.mark))}
			it.released = it.mark
			it.text.Forget(it.released)
			return r, true
		}
		if open && it.text.Len() > it.released {
			r := Release{Item: it.item, Offset: it.released, Text: string(it.text.Slice(it.released, it.text.Len())), Unchecked: true}
			it.released = it.text.Len()
			it.mark = it.released
			it.text.Forget(it.released)
			return r, true
		}
	}
	return Release{}, false
}

// endErr says why Recv has nothing more, or nil to wait. g.mu must be held
// and next must have found nothing.
func (g *Gate) endErr() error {
	switch {
	case g.block != nil:
		return &BlockedError{Block: *g.block}
	case g.err != nil && !g.failedOpen():
		return g.err
	case g.failedOpen() && g.sendClosed:
		return io.EOF
	case g.ended:
		for _, it := range g.order {
			if it.released < it.text.Len() {
				// The service ended without covering every byte: a
				// contract breach, treated like an unavailable service.
				g.err = fmt.Errorf("%w: stream ended with %d bytes of an item not cleared", ErrUnavailable, it.text.Len()-it.released)
				return g.endErr()
			}
		}
		return io.EOF
	}
	return nil
}

// Verdict returns a snapshot of everything the service has said on the
// stream so far, like Check's verdict: use v.Choice(i).ContentFilterResults()
// to annotate a choice's chunks. When the gate stopped because the service
// is gone, Unavailable and Cause are set and Blocked follows the fail mode.
func (g *Gate) Verdict() *Verdict {
	g.mu.Lock()
	defer g.mu.Unlock()
	v := g.t.verdict()
	if g.block == nil && g.err != nil && errors.Is(g.err, ErrUnavailable) {
		v.unavailable(g.err, g.c.cfg.failMode)
	}
	return v
}

// Close ends the stream (cancelling it if the service has not finished) and
// waits for the gate's goroutine. Recv then returns ErrClosed unless it had
// already ended. Close is idempotent and never fails.
func (g *Gate) Close() error {
	g.mu.Lock()
	if g.block == nil && g.err == nil && !g.ended {
		g.err = ErrClosed
	}
	if g.finalTimer != nil {
		g.finalTimer.Stop()
	}
	g.broadcast()
	g.mu.Unlock()
	g.cancel()
	<-g.done
	return nil
}
