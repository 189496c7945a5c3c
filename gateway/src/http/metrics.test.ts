import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createGatewayMetrics, routeOf } from "./metrics.js";

const metrics = suite("gateway metrics");
const req = (url: string, method = "GET") => ({ url, method }) as IncomingMessage;

metrics("should count hot-path answers at scrape time, once, under bounded routes", async () => {
  const m = createGatewayMetrics();
  for (let i = 0; i < 3; i++) m.record(req(`/api/releases/client?limit=${i}`), 200);
  m.record(req("/api/feeds/client.json", "HEAD"), 304);
  const first = await m.render();
  assert.match(first, 'http_request{method="GET",route="api",code="200"} 3');
  assert.match(first, 'http_request{method="HEAD",route="feed",code="304"} 1');
  assert.not.match(first, "limit=");
  m.record(req("/api/releases/client"), 200);
  assert.match(await m.render(), 'http_request{method="GET",route="api",code="200"} 4', "added once, not again at the next scrape");
});

metrics("should count hot answers by answer and method, into the same series as other answers", async () => {
  const m = createGatewayMetrics();
  const latest = {};
  const feed = {};
  for (let i = 0; i < 3; i++) m.recordHot(latest, "GET", "/api/releases/client/latest", 200);
  m.recordHot(latest, "HEAD", "/api/releases/client/latest", 200);
  m.recordHot(feed, "GET", "/api/feeds/client.json", 200);
  // Another answer for another URL of the same route adds to the same series.
  m.recordHot({}, "GET", "/api/releases/server/latest", 200);
  m.record(req("/api/releases/client"), 200);
  const text = await m.render();
  assert.match(text, 'http_request{method="GET",route="api",code="200"} 5');
  assert.match(text, 'http_request{method="HEAD",route="api",code="200"} 1');
  assert.match(text, 'http_request{method="GET",route="feed",code="200"} 1');
});

metrics("should time and count other requests when their response closes", async () => {
  const m = createGatewayMetrics();
  const res = Object.assign(new EventEmitter(), { statusCode: 404 }) as unknown as ServerResponse;
  m.observe(req("/client/mc/release/linux-amd64/mc"), res);
  assert.match(await m.render(), "http_request_inflight 1");
  res.emit("close");
  const text = await m.render();
  assert.match(text, 'http_request{method="GET",route="file",code="404"} 1');
  assert.match(text, 'http_request_duration_count{route="file"} 1');
  assert.match(text, "http_request_inflight 0");
});

metrics("should map paths to a fixed set of routes", () => {
  assert.equal(["/healthz", "/metrics?x", "/releases.v1.ReleaseService/ListReleases", "/feed-client.rss", "/api/x", "/p/c/release/notes/", "/anything"].map(routeOf), ["/healthz", "/metrics", "connect", "feed", "api", "file", "other"]);
});

metrics.run();
