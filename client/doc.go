// Package client is the Go client of the raiserver analysis service, for
// chat backends that moderate prompts and model output.
//
// A Client checks payloads and gates streamed output:
//
//	c, err := client.Dial("dns:///raiserver:50051")          // round_robin over every address
//	v, err := c.Check(ctx, client.Chat, client.Prompt, body) // the request body, before calling the model
//	if v.Blocked {
//		w.WriteHeader(v.HTTPStatus())         // 400, or 500 when the service was down (FailClosed)
//		json.NewEncoder(w).Encode(v.AzureError()) // or v.ChatError()
//	}
//
// Check sends the payloads of any API (Chat, Completions, Realtime, Images)
// as PROMPT or COMPLETION on one stream, half-closes and returns a Verdict:
// Blocked, the worst severity per category, the first blocking segment
// (Block), per item results, and whether the service was unavailable and
// what the fail mode decided. Verdict has helpers for Azure OpenAI's wire
// format (ContentFilterResults, PromptFilterResults, AzureError,
// FinishReason) and for the AI Chat Protocol (ChatError), and HTTPStatus.
//
// # Streaming: the Gate
//
// A Gate holds model output back until the service has cleared it. Send
// takes each raw streaming chunk of the model's response, exactly as the
// model API sent it (a chat.completion.chunk, a completions chunk, a
// Realtime server event); Recv returns Releases: text of one item
// (messageId = the choice index for chat, contentIndex) that may be shown
// now.
//
//	g, _ := c.NewGate(ctx, client.Chat)
//	defer g.Close()
//	go func() { for chunk := range model { if g.Send(chunk) != nil { break } }; g.CloseSend() }()
//	for {
//		r, err := g.Recv()
//		if err == io.EOF { break }            // everything released
//		if err != nil { /* *BlockedError or ErrUnavailable: send an error chunk, stop */ }
//		write(r.Item.MessageID, r.Text)
//	}
//
// Why the gate takes raw chunks and not text: a Watermark is a byte offset
// into the item's text as the service extracted it (SPEC §2-3: decoded JSON
// strings, content parts, refusals, tool-call arguments each under their own
// contentIndex, Realtime done events that repeat text). The gate runs the
// same extraction (package extract) on each chunk, so the text it keeps is
// byte for byte the text the offsets count, whatever the API, and the
// caller cannot get the mapping wrong. Send appends a chunk's text to the
// gate's copy before the chunk goes to the service, so a watermark never
// points past text the gate has. The gate keeps an item's text only until
// it is released, and a Realtime item's current version, with which its
// done events are compared (extract.Text).
//
// A Release never splits a segment: it ends at a watermark, which the
// service only puts at segment ends, so it never ends inside a UTF-8
// sequence. On the first blocking result the gate stops for good: it
// releases the blocked item's text before the blocking segment (every
// segment before it was analyzed and cleared), whatever other items'
// watermarks had already cleared, and then Recv (and Send) return a
// *BlockedError with the Block: item, byte range, category and severity.
// After CloseSend, the rest is released once the final watermarks arrive,
// then Recv returns io.EOF.
//
// # Fail mode and deadlines
//
// The service may be unreachable, slow, or end a stream with an error of its
// own (shutdown). Every call has a deadline (WithTimeout, default 3s): a
// Check must be answered within it; a Gate's stream must open within it,
// each Send must be taken by the transport within it, and the final
// watermarks must arrive within it after CloseSend. Mid-stream the gate
// does not time the service (the watermark legitimately trails by an
// unfinished sentence), but a broken connection ends the stream at once.
//
// FailClosed (the default): a Check is Blocked with Unavailable set
// (HTTPStatus 500), and a Gate releases only what the service cleared, then
// returns an error wrapping ErrUnavailable. FailOpen (WithFailMode): a Check
// passes with Unavailable set (ContentFilterResults then is Azure's "filter
// did not run" error form), and a Gate releases the rest as Unchecked
// releases. A payload the service rejects (ErrRejected) and the caller's own
// context ending are never subject to the fail mode.
//
// # Concurrency
//
// A Client is safe for concurrent use; each Check and each Gate is one gRPC
// stream, and Dial's connection spreads them over the service's addresses.
// A Gate has one producer (Send, CloseSend) and one consumer (Recv); Verdict
// and Close may be called from anywhere.
//
// Errors wrap ErrUnavailable, ErrRejected or ErrClosed, or are a
// *BlockedError; none contains analyzed text.
//
// Dependencies: client imports gen/rai/v1 (the wire types) and extract (the
// payload text rules the service uses); nothing in the service imports it.
package client
