// Drives the backend's /v1/chat/completions with the official openai npm
// package, unchanged: node check.mjs http://127.0.0.1:PORT/v1
// Prints one line per check ("ok NAME" or "FAIL NAME: why") and exits 1 on a
// failure. Prompts come from the environment (SDK_BENIGN, SDK_HARMFUL,
// SDK_CUTOFF) so that no harmful text lives in this file.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: "unused", maxRetries: 0 });
const user = (content) => [{ role: "user", content }];
let failed = false;
const check = async (name, fn) => {
  try { await fn(); console.log("ok " + name); }
  catch (e) { failed = true; console.log("FAIL " + name + ": " + (e && e.message)); }
};
const assert = (cond, why) => { if (!cond) throw new Error(why); };

await check("non-streaming answer", async () => {
  const r = await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_BENIGN) });
  assert(r.choices[0].message.content.length > 0, "empty content");
  assert(r.choices[0].finish_reason === "stop", "finish_reason " + r.choices[0].finish_reason);
  assert(r.prompt_filter_results[0].content_filter_results.violence.severity === "safe", "no prompt_filter_results");
});

await check("streaming answer", async () => {
  const stream = await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_BENIGN), stream: true });
  let text = "", finish = null;
  for await (const chunk of stream) {
    for (const c of chunk.choices) {
      text += c.delta?.content ?? "";
      finish = c.finish_reason ?? finish;
    }
  }
  assert(text.length > 0, "no text");
  assert(finish === "stop", "finish_reason " + finish);
});

await check("stream helper (runner) answer", async () => {
  const runner = client.chat.completions.stream({ model: "scripted", messages: user(process.env.SDK_BENIGN) });
  const final = await runner.finalChatCompletion();
  assert(final.choices[0].message.content.length > 0, "no content");
});

await check("blocked prompt is a 400 content_filter error", async () => {
  try {
    await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_HARMFUL) });
  } catch (e) {
    assert(e instanceof OpenAI.BadRequestError, "not a BadRequestError: " + e.constructor.name);
    assert(e.status === 400, "status " + e.status);
    assert(e.code === "content_filter", "code " + e.code);
    assert(e.error.innererror.code === "ResponsibleAIPolicyViolation", "innererror");
    return;
  }
  throw new Error("no error");
});

await check("blocked prompt, streaming, is a 400 too", async () => {
  try {
    const s = await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_HARMFUL), stream: true });
    for await (const _ of s) { /* drain */ }
  } catch (e) {
    assert(e.status === 400 && e.code === "content_filter", "status " + e.status + " code " + e.code);
    return;
  }
  throw new Error("no error");
});

await check("cut-off stream ends with finish_reason content_filter", async () => {
  const stream = await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_CUTOFF), stream: true });
  let text = "", finish = null, filtered = false;
  for await (const chunk of stream) {
    for (const c of chunk.choices) {
      text += c.delta?.content ?? "";
      finish = c.finish_reason ?? finish;
      if (c.content_filter_results?.violence?.filtered) filtered = true;
    }
  }
  assert(finish === "content_filter", "finish_reason " + finish);
  assert(filtered, "no filtered content_filter_results");
  assert(text.length > 0, "nothing before the cut");
  console.log("released_bytes " + Buffer.byteLength(text));
});

await check("cut-off non-streaming answer has finish_reason content_filter", async () => {
  const r = await client.chat.completions.create({ model: "scripted", messages: user(process.env.SDK_CUTOFF) });
  assert(r.choices[0].finish_reason === "content_filter", "finish_reason " + r.choices[0].finish_reason);
});

process.exit(failed ? 1 : 0);
