import type { IncomingMessage } from "node:http";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { hotKeyOf, readHotRequest } from "./hot-request.js";

const hot = suite("hot request reader");

/** The fields readHotRequest reads, as Node's parser leaves them. */
const request = (method: string, url: string, ...raw: string[]): IncomingMessage => ({ method, url, rawHeaders: raw }) as unknown as IncomingMessage;

hot("reads the negotiation headers and the caller's id in any spelling of their names", () => {
  const spellings: Array<[string, string, string]> = [
    ["accept-encoding", "accept", "x-request-id"],
    ["Accept-Encoding", "Accept", "X-Request-Id"],
    ["ACCEPT-ENCODING", "ACCEPT", "X-REQUEST-ID"],
    ["aCcEpT-eNcOdInG", "aCCEPT", "x-Request-ID"],
  ];
  for (const [enc, acc, id] of spellings) {
    const read = readHotRequest(request("GET", "/api/releases/client", "Host", "x", enc, "gzip", acc, "text/html", id, "abc-1"));
    assert.equal(read, { key: hotKeyOf("/api/releases/client", "gzip", "text/html"), requestId: "abc-1" }, enc);
  }
  assert.equal(readHotRequest(request("HEAD", "/a", "Host", "x")), { key: hotKeyOf("/a", undefined, undefined), requestId: undefined });
});

hot("keys an empty header as an absent one, as the full path's key does", () => {
  assert.is(readHotRequest(request("GET", "/a", "Accept-Encoding", ""))?.key, readHotRequest(request("GET", "/a"))?.key);
});

hot("keys a request without negotiation headers by its URL, which no negotiated key equals", () => {
  assert.is(hotKeyOf("/a", undefined, undefined), "/a");
  assert.is(hotKeyOf("/a", "", ""), "/a");
  const negotiated = [hotKeyOf("/a", "gzip", undefined), hotKeyOf("/a", undefined, "text/html"), hotKeyOf("/a", "", "*/*")];
  assert.is(new Set([...negotiated, "/a"]).size, 4, "four requests, four keys");
  // Node refuses a line feed in a request target, so no URL is spelled like a negotiated key.
  for (const key of negotiated) assert.ok(key.includes("\n"), key);
});

hot("leaves to the full path what it cannot answer alike", () => {
  const refused: Array<[string, IncomingMessage]> = [
    ["POST", request("POST", "/a")],
    ["OPTIONS", request("OPTIONS", "/a")],
    ["If-None-Match", request("GET", "/a", "If-None-Match", '"x"')],
    ["if-modified-since", request("GET", "/a", "if-modified-since", "Mon, 07 Dec 2026 10:00:00 GMT")],
    ["a body by length", request("GET", "/a", "Content-Length", "5")],
    ["a chunked body", request("GET", "/a", "Transfer-Encoding", "chunked")],
    // Node joins these (or keeps the first): the full path reads them as Node does.
    ["accept-encoding twice", request("GET", "/a", "Accept-Encoding", "identity", "accept-encoding", "gzip")],
    ["accept twice", request("GET", "/a", "Accept", "text/html", "ACCEPT", "application/json")],
    ["x-request-id twice", request("GET", "/a", "X-Request-Id", "a", "x-request-id", "b")],
  ];
  for (const [why, req] of refused) assert.is(readHotRequest(req), undefined, why);
  assert.ok(readHotRequest(request("GET", "/a", "Content-Length", "0")), "an empty body is no body");
});

hot("ignores headers of the looked-for lengths that are not looked for", () => {
  // 6, 12, 13, 14, 15 and 17 characters, as the names it reads.
  const read = readHotRequest(request("GET", "/a", "Cookie", "c=1", "Content-Type", "x", "Cache-Control", "no-cache", "Sec-Fetch-Mode", "cors", "Accept-Language", "en", "X-Forwarded-Proto", "https"));
  assert.equal(read, { key: hotKeyOf("/a", undefined, undefined), requestId: undefined });
});

hot.run();
