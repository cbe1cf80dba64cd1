// Package extract finds the text in raw OpenAI / Azure OpenAI payloads: Chat
// Completions, legacy Completions, Realtime events and Image generation,
// requests and responses, whole or as stream chunks.
//
// Stream.Extract parses one payload with gjson over its raw bytes (no
// encoding/json decoding) and appends the payload's Pieces to a caller-owned
// slice: decoded text for a text item, keyed by (Source, MessageID,
// ContentIndex) as SPEC §2 defines, or a NoModel marker for content that has
// no analyzable text (images, audio without transcript, files). The full
// mapping, with every decision the SPEC leaves open, is in
// docs/protocol.md ("Payload extraction"); the reserved content indices are the Index* constants.
//
// The payload decides what its text is: a chat request's messages are PROMPT
// text and a chat response's choices are COMPLETION text whatever sourceType
// the request claimed, and a Realtime event's type and item role decide its
// source. Text is never dropped because of a wrong claim.
//
// Parsing is tolerant (unknown fields and event types are ignored; a valid
// payload that carries no text, such as a stream chunk without choices,
// yields nothing) and bounded (nesting depth, Realtime map size). A payload
// that is not JSON fails with ErrInvalidJSON; JSON that is not the API's
// shape (a field of the wrong type, a Realtime event without type, another
// API's text field in a payload without this API's) fails with ErrShape, and
// the message gives the JSON path, never the text.
//
// A Stream keeps per-stream state (the Realtime item→response map) and is not
// safe for concurrent use: use one per gRPC stream.
//
// Text is an item's text as its readers hold it (the analyzer and the
// client's watermark gate): Add appends what a Piece adds (Piece.Extends),
// and Forget lets go of text a reader will not read again, so that a long
// stream's memory does not grow with its length. A Full piece is compared
// with the item's current version (its text since the last Full piece that
// disagreed), which Realtime items keep.
//
// Dependencies point one way: extract (gjson) ← analyzer ← server ← cmd.
// This package imports no project package.
package extract
