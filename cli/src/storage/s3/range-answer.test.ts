import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readRangeAnswer } from "./range-answer.js";

const answer = suite("the head of a ranged GET's answer");

const head = (...lines: string[]): string => lines.join("\r\n");
const plain = ["HTTP/1.1 206 Partial Content", "Content-Length: 100", "Content-Range: bytes 200-299/1000", "ETag: \"abc-2\""];

answer("should take a plain 206 for exactly the range, and keep the connection", () => {
  assert.equal(readRangeAnswer(head(...plain), 200, 100), { fits: true, keepAlive: true });
  // Names in any case, no reason phrase, an unknown total, spaces around values.
  assert.equal(readRangeAnswer(head("HTTP/1.1 206", "content-length:100", "CONTENT-RANGE:  bytes 200-299/*  "), 200, 100), { fits: true, keepAlive: true });
});

answer("should not keep a connection the server will close", () => {
  assert.equal(readRangeAnswer(head(...plain, "Connection: close"), 200, 100), { fits: true, keepAlive: false });
  assert.equal(readRangeAnswer(head(...plain, "Connection: Keep-Alive, Close"), 200, 100), { fits: true, keepAlive: false });
  assert.equal(readRangeAnswer(head("HTTP/1.0 206 Partial Content", ...plain.slice(1)), 200, 100), { fits: true, keepAlive: false });
});

answer("should refuse anything but the range asked for", () => {
  const refusals: Array<[string, string[]]> = [
    ["the whole object", ["HTTP/1.1 200 OK", "Content-Length: 1000"]],
    ["an error", ["HTTP/1.1 412 Precondition Failed", "Content-Length: 100", "Content-Range: bytes 200-299/1000"]],
    ["another length", ["HTTP/1.1 206 Partial Content", "Content-Length: 99", "Content-Range: bytes 200-299/1000"]],
    ["another start", ["HTTP/1.1 206 Partial Content", "Content-Length: 100", "Content-Range: bytes 201-300/1000"]],
    ["another end", ["HTTP/1.1 206 Partial Content", "Content-Length: 100", "Content-Range: bytes 200-298/1000"]],
    ["no Content-Range", ["HTTP/1.1 206 Partial Content", "Content-Length: 100"]],
    ["no Content-Length", ["HTTP/1.1 206 Partial Content", "Content-Range: bytes 200-299/1000"]],
    ["an unsatisfiable range", ["HTTP/1.1 206 Partial Content", "Content-Length: 100", "Content-Range: bytes */1000"]],
    ["a chunked body", [...plain, "Transfer-Encoding: chunked"]],
    ["two Content-Lengths", [...plain, "Content-Length: 100"]],
    ["two Content-Ranges", [...plain, "Content-Range: bytes 200-299/1000"]],
    ["a folded line", [...plain, "X-A: 1", " continued"]],
    ["a space before the colon", [...plain, "X-A : 1"]],
    ["a NUL in a value", [...plain, "X-A: a\0b"]],
    ["a bare LF in a value", [...plain, "X-A: a\nb"]],
    ["a bad status line", ["HTTP/2 206", ...plain.slice(1)]],
    ["a status line that is not HTTP", ["ICY 206 OK", ...plain.slice(1)]],
    ["a signed length", ["HTTP/1.1 206 Partial Content", "Content-Length: +100", "Content-Range: bytes 200-299/1000"]],
  ];
  for (const [what, lines] of refusals) assert.is(readRangeAnswer(head(...lines), 200, 100).fits, false, what);
});
answer.run();
