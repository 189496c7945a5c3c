import { suite } from "uvu";
import * as assert from "uvu/assert";
import { hotKeyOf } from "./hot-request.js";
import { readRawHead } from "./raw-request-head.js";

const head = suite("raw request head");

const wrk = "GET /api/releases/client/latest HTTP/1.1\r\nHost: 127.0.0.1:8080";

head("reads what wrk, curl and a browser send, keyed as the hot path keys them", () => {
  assert.equal(readRawHead(wrk), { method: "GET", url: "/api/releases/client/latest", key: "/api/releases/client/latest", requestId: undefined });
  const curl = "HEAD /a?b=c HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8.5.0\r\nAccept: */*";
  assert.equal(readRawHead(curl), { method: "HEAD", url: "/a?b=c", key: hotKeyOf("/a?b=c", undefined, "*/*"), requestId: undefined });
  const browser = ["GET /client/releases HTTP/1.1", "Host: d.example", "Connection: keep-alive", "Accept: text/html", "Accept-Encoding: gzip, br", "X-Request-ID: abc-1", "Accept-Language: en"].join("\r\n");
  assert.equal(readRawHead(browser), { method: "GET", url: "/client/releases", key: hotKeyOf("/client/releases", "gzip, br", "text/html"), requestId: "abc-1" });
});

head("reads names in any case and values without the white space around them, as llhttp does", () => {
  const odd = "GET /a HTTP/1.1\r\nhOsT:x\r\naccept-ENCODING: \t gzip \t\r\nCONNECTION:   Keep-Alive\r\nx-request-id:\tid-2";
  assert.equal(readRawHead(odd), { method: "GET", url: "/a", key: hotKeyOf("/a", "gzip", undefined), requestId: "id-2" });
  // A non-breaking space (obs-text) is part of a value, not white space around it.
  assert.is(readRawHead("GET /a HTTP/1.1\r\nHost: x\r\nAccept: \xa0text/html")?.key, hotKeyOf("/a", undefined, "\xa0text/html"));
});

/** Heads the lane must leave to Node, each with why. */
const refused: Array<[string, string]> = [
  ["POST /a HTTP/1.1\r\nHost: x", "another method"],
  ["get /a HTTP/1.1\r\nHost: x", "a lower-case method"],
  ["GET /a HTTP/1.0\r\nHost: x", "HTTP/1.0"],
  ["GET /a HTTP/1.1 \r\nHost: x", "a space after the version"],
  ["GET  /a HTTP/1.1\r\nHost: x", "two spaces before the target"],
  ["GET /a  HTTP/1.1\r\nHost: x", "two spaces after the target"],
  ["GET /a b HTTP/1.1\r\nHost: x", "a space in the target"],
  ["GET /a\xa0b HTTP/1.1\r\nHost: x", "obs-text in the target (found by raw-head-fuzz, seed 15)"],
  ["GET /a\tb HTTP/1.1\r\nHost: x", "a tab in the target"],
  ["GET http://x/a HTTP/1.1\r\nHost: x", "an absolute-form target"],
  ["GET * HTTP/1.1\r\nHost: x", "an asterisk target"],
  ["\r\nGET /a HTTP/1.1\r\nHost: x", "an empty line before the request line"],
  ["GET /a HTTP/1.1", "no Host"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nhost: y", "two Hosts"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nConnection: close", "Connection: close"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade", "a Connection list"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket", "Upgrade"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue", "Expect"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked", "a chunked body"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5", "a body"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"e\"", "a conditional request"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: Mon, 07 Dec 2026 00:00:00 GMT", "a conditional request by date"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAccept: a\r\nAccept: b", "a read header twice"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nX-Request-ID: 1\r\nx-request-id: 2", "two request ids"],
  ["GET /a HTTP/1.1\nHost: x", "a bare LF ending a line"],
  ["GET /a HTTP/1.1\r\nHost: x\rAccept: b", "a bare CR"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAccept: a\0b", "a NUL in a value"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAccept: a\x7fb", "DEL in a value"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAccept: a\r\n b", "a folded line"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAccept : a", "a space before the colon"],
  ["GET /a HTTP/1.1\r\nHost: x\r\n: a", "an empty name"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nno colon here", "a line without a colon"],
  ["GET /a HTTP/1.1\r\nHost: x\r\nAcc\xe9pt: a", "a name that is not a token"],
];

head("leaves every head Node refuses or reads differently to Node", () => {
  for (const [text, why] of refused) assert.is(readRawHead(text), undefined, why);
});

head.run();
