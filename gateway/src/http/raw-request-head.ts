import { hotKeyOf, noHotFields, takeHotHeader, type HotRequest } from "./hot-request.js";

/** A request head the raw lane may answer from the cache. */
export interface RawHotRequest extends HotRequest {
  readonly method: "GET" | "HEAD";
  /** The request target as sent (Node's `req.url`). */
  readonly url: string;
}

/**
 * Bytes that never stand in a head Node accepts, outside the CRLF line ends:
 * control characters (HTAB aside), DEL, and a CR or LF alone. Node answers
 * 400 to them; the raw lane leaves them to Node so that it still does.
 */
const forbidden = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|(?<!\r)\n/;
/** An origin-form target in visible ASCII: llhttp refuses anything else (a space, obs-text). */
const target = /^\/[\x21-\x7e]*$/;
/** RFC 9110 §5.6.2 token: a header name. A space before the colon, or a folded line, fails it. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The value without the optional white space around it (SP and HTAB only, as llhttp trims). */
function trimOws(line: string, from: number): string {
  let start = from;
  let end = line.length;
  while (start < end && (line.charCodeAt(start) === 32 || line.charCodeAt(start) === 9)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return line.slice(start, end);
}

/**
 * Reads one request head (`head`: from the request line to the last header
 * line, without the blank line) for the raw lane. Undefined for anything
 * the lane leaves to Node, which answers it as it always did: a method
 * other than GET or HEAD, a version other than HTTP/1.1, a malformed line,
 * no Host or two, `Connection` other than keep-alive, `Expect`, `Upgrade`,
 * or a header takeHotHeader refuses (conditionals, bodies, repeats).
 *
 * Pure and strict on purpose: every doubt hands the request to Node, so the
 * lane can only ever answer what Node's path would have answered the same.
 */
export function readRawHead(head: string): RawHotRequest | undefined {
  if (forbidden.test(head)) return undefined;
  const lines = head.split("\r\n");
  const requestLine = lines[0] as string;
  const method = requestLine.startsWith("GET /") ? "GET" : requestLine.startsWith("HEAD /") ? "HEAD" : undefined;
  if (!method || !requestLine.endsWith(" HTTP/1.1")) return undefined;
  const url = requestLine.slice(method.length + 1, -9);
  if (!target.test(url)) return undefined;
  const fields = noHotFields();
  let hosts = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(":");
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon);
    if (!token.test(name)) return undefined;
    const value = trimOws(line, colon + 1);
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === "host") hosts++;
        break;
      case 6:
        if (name.toLowerCase() === "expect") return undefined;
        break;
      case 7:
        if (name.toLowerCase() === "upgrade") return undefined;
        break;
      case 10:
        if (name.toLowerCase() === "connection" && value.toLowerCase() !== "keep-alive") return undefined;
        break;
    }
    if (!takeHotHeader(fields, name, value)) return undefined;
  }
  if (hosts !== 1) return undefined;
  return { method, url, key: hotKeyOf(url, fields.acceptEncoding, fields.accept), requestId: fields.requestId };
}
