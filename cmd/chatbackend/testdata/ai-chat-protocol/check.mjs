// Drives the backend's /chat and /chat/stream with Microsoft's AI Chat
// Protocol client (@microsoft/ai-chat-protocol), unchanged:
//   node check.mjs http://127.0.0.1:PORT/chat
// Prints "ok NAME" or "FAIL NAME: why" per check, exits 1 on a failure.
// Prompts come from SDK_BENIGN, SDK_HARMFUL and SDK_CUTOFF.
import { AIChatProtocolClient } from "@microsoft/ai-chat-protocol";

const client = new AIChatProtocolClient(process.argv[2]);
const user = (content) => [{ role: "user", content }];
let failed = false;
const check = async (name, fn) => {
  try { await fn(); console.log("ok " + name); }
  catch (e) { failed = true; console.log("FAIL " + name + ": " + (e && (e.message || e))); }
};
const assert = (cond, why) => { if (!cond) throw new Error(why); };

await check("getCompletion echoes sessionState", async () => {
  const r = await client.getCompletion(user(process.env.SDK_BENIGN), { sessionState: { id: "s1" } });
  assert(r.message.role === "assistant" && r.message.content.length > 0, "no message");
  assert(r.sessionState && r.sessionState.id === "s1", "sessionState " + JSON.stringify(r.sessionState));
});

await check("getStreamedCompletion", async () => {
  const s = await client.getStreamedCompletion(user(process.env.SDK_BENIGN), { sessionState: "s2" });
  let text = "", state;
  for await (const chunk of s) {
    text += chunk.delta?.content ?? "";
    if (chunk.sessionState !== undefined) state = chunk.sessionState;
  }
  assert(text.length > 0, "no text");
  assert(state === "s2", "sessionState " + state);
});

await check("blocked prompt throws the error", async () => {
  try { await client.getCompletion(user(process.env.SDK_HARMFUL)); }
  catch (e) { assert(typeof e === "string" && e.includes("content filter"), "error " + JSON.stringify(e)); return; }
  throw new Error("no error");
});

await check("blocked prompt, streamed, throws the error", async () => {
  try {
    const s = await client.getStreamedCompletion(user(process.env.SDK_HARMFUL));
    for await (const _ of s) { /* drain */ }
  } catch (e) { assert(typeof e === "string" && e.includes("content filter"), "error " + JSON.stringify(e)); return; }
  throw new Error("no error");
});

await check("cut-off stream gives text, then throws the error chunk", async () => {
  let text = "";
  try {
    const s = await client.getStreamedCompletion(user(process.env.SDK_CUTOFF));
    for await (const chunk of s) { text += chunk.delta?.content ?? ""; }
  } catch (e) {
    assert(typeof e === "string" && e.includes("content filter"), "error " + JSON.stringify(e));
    assert(text.length > 0, "no text before the cut");
    console.log("released_bytes " + Buffer.byteLength(text));
    return;
  }
  throw new Error("no error");
});

process.exit(failed ? 1 : 0);
