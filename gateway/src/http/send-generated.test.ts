import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RestRequest } from "../rest/rest-handler.js";
import { createResponseCache } from "./response-cache.js";
import { answerGenerated, generated, hotKey } from "./send-generated.js";

/** A GET as the server hands it over: only the parts answerGenerated reads. */
function request(url: string, headers: Record<string, string>): RestRequest {
  const raw = new IncomingMessage(new Socket());
  raw.method = "GET";
  raw.url = url;
  raw.headers = headers;
  return { method: "GET", path: url, params: {}, query: new URLSearchParams(), headers, body: new Uint8Array(0), json: () => undefined, signal: new AbortController().signal, raw };
}

const send = suite("answerGenerated");

send("should not keep an answer for the hot path when a newer catalog is seen while it is being compressed", async () => {
  const cache = createResponseCache();
  cache.observe("5.0000000a");
  const body = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ release_id: `RELEASE.2026-01-01T00-00-00Z`, i })));
  const cached = await cache.get("latest", async () => ({ ...generated(body, "application/json", undefined), catalogVersion: "5.0000000a" }));
  const req = request("/api/releases/client/latest", { "accept-encoding": "gzip" });
  // Compression takes a turn of the event loop: a publish's event arrives meanwhile.
  const answering = answerGenerated(req, cache, cached, Date.now());
  cache.observe("6.00000001");
  const res = await answering;
  assert.is(res.status, 200);
  assert.is(cache.hot(hotKey(req.raw)), undefined, "the old catalog's answer was kept for the hot path");
});

send("should keep the answer for the hot path when nothing changed", async () => {
  const cache = createResponseCache();
  const cached = await cache.get("k", async () => ({ ...generated("x".repeat(1000), "text/plain", undefined), catalogVersion: "5.0000000a" }));
  const req = request("/k", { "accept-encoding": "gzip" });
  await answerGenerated(req, cache, cached, Date.now());
  assert.is(cache.hot(hotKey(req.raw))?.headers["content-encoding"], "gzip");
});

send.run();
