// Command chatbackend is the reference chat backend: a model behind the
// raiserver content filter, served in three protocols on one port.
//
//   - AI Chat Protocol: POST /chat (JSON) and POST /chat/stream (NDJSON,
//     application/json-lines), request {messages, context, session_state}
//     (or camelCase sessionState, answered in the spelling the request used).
//   - Agent Chat API under /agent: POST /agent/chat/response and POST
//     /agent/chat/stream (SSE new_message events), errors {"detail": ...}.
//   - OpenAI-compatible moderating proxy: POST /v1/chat/completions,
//     streaming or not, with Azure OpenAI's content filter behaviour
//     (prompt_filter_results, content_filter_results, finish_reason
//     "content_filter", the content_filter 400 error).
//   - A chat page at / (web/index.html, embedded) that uses /chat/stream.
//
// Every prompt is checked before the model is called (client.Check); a
// blocked prompt is refused with 400 and the model never sees it. Every
// answer streams through a client.Gate: text reaches the user only as far as
// the service's watermark, and a blocking result cuts the answer off before
// the harmful segment, followed by the protocol's error. When the service
// cannot answer in time the backend fails closed (500 / an error chunk)
// unless --fail-open is set.
//
// The model is --upstream URL (any OpenAI-compatible chat completions
// endpoint; key from $OPENAI_API_KEY or --api-key-env) or the offline
// scripted model (--model scripted --script FILE: {"rules": [{"match",
// "answer"}]}, first rule whose match is a substring of the last user
// message wins; an embedded script is the default).
//
// Dependencies: client (the sidecar's Go client), extract (its content-index
// constants), and, for --sidecar-embedded only, analyzer, server,
// classifiers/ensemble and grpc to run the service in-process; otherwise the
// standard library. Its tests add chromedp (the browser test) and goleak.
// Nothing imports it.
package main
