// A ranged GET of an object over plain HTTP whose body is read straight into
// the caller's buffers (issue 21). Node's HTTP client copies every socket read
// of a body into a new Buffer: a 1 GiB download made 16,000 of them, and
// allocating, copying and collecting them was most of mc's CPU, on a machine
// where the server wants the other core. Here the socket reads into the file
// writer's own buffers (net's `onread`), which it reuses.
//
// Only the expected answer is handled here: a 206 with exactly the bytes
// asked for. Anything else, and a connection that fails or ends early, stops
// with the bytes delivered so far, and the caller reads the rest through the
// SDK path, which reports any error in its usual words.
import { connect } from "node:net";
import type { RangeInto, RangeSink } from "../types.js";
import { directCapable, directRequestOptions, validBucket, type DirectTarget } from "./s3-direct.js";
import { s3Escape } from "./s3-escape.js";
import { quotedEtag } from "./s3-read.js";

/** A response head larger than this is not the one expected (RGW's and MinIO's are under 1 KiB). */
const maxHead = 16 * 1024;

interface RangeObject {
  readonly bucket: string;
  readonly key: string;
  readonly versionId?: string;
  readonly ifMatch?: string;
}

/** A reader of `object`'s ranges into buffers, or undefined when this target needs the SDK (TLS, virtual hosts, odd names). */
export function directRangeReader(target: DirectTarget | undefined, object: RangeObject): RangeInto | undefined {
  if (!target || target.useSSL || !directCapable(target) || !validBucket(object.bucket) || object.key === "") return undefined;
  // A header the SDK would refuse (a line break in a --custom-header) goes to the SDK for its error.
  if (Object.entries(target.headers).some(([k, v]) => /[\r\n\0]/.test(k + v))) return undefined;
  return (offset, length, sink, signal) => getRange(target, object, offset, length, sink, signal);
}

/** The request, signed as the SDK signs it, asking the server to close the connection after the body. */
function requestText(target: DirectTarget, object: RangeObject, offset: number, length: number): string {
  const headers: Record<string, string> = { range: `bytes=${offset}-${offset + length - 1}` };
  if (object.ifMatch) headers["if-match"] = quotedEtag(object.ifMatch);
  const query = object.versionId ? `versionId=${s3Escape(object.versionId)}` : "";
  const request = directRequestOptions(target, { method: "GET", bucketName: object.bucket, objectName: object.key, query, headers }, target.region, new Date());
  const lines = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `GET ${request.path} HTTP/1.1\r\n${lines.join("")}connection: close\r\n\r\n`;
}

/** Whether a response head is the 206 for exactly this range (and this ETag). */
export function expectedHead(head: string, offset: number, length: number, ifMatch?: string): boolean {
  const [status = "", ...lines] = head.split("\r\n");
  if (!/^HTTP\/1\.[01] 206(?: |$)/.test(status)) return false;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) return false;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Two lengths or two ranges: not something to guess about.
    if (headers.has(name) && (name === "content-length" || name === "content-range")) return false;
    headers.set(name, line.slice(colon + 1).trim());
  }
  if (headers.has("transfer-encoding") || headers.get("content-length") !== String(length)) return false;
  const range = /^bytes (\d+)-(\d+)\/(?:\d+|\*)$/.exec(headers.get("content-range") ?? "");
  if (!range || Number(range[1]) !== offset || Number(range[2]) !== offset + length - 1) return false;
  const etag = headers.get("etag");
  return !ifMatch || etag === undefined || etag === quotedEtag(ifMatch);
}

function getRange(target: DirectTarget, object: RangeObject, offset: number, length: number, sink: RangeSink, signal?: AbortSignal): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const head = Buffer.allocUnsafe(maxHead);
    let headBytes = 0;
    let inBody = false;
    let delivered = 0;
    let settled = false;
    const finish = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      if (err === undefined) resolve(delivered);
      else reject(err);
    };
    const onAbort = (): void => finish(signal?.reason);
    /** Counts `n` bytes put at the start of the sink's room; pauses the socket while the sink asks to. */
    const deliver = (n: number): void => {
      delivered += n;
      const wait = sink.put(n);
      if (wait) {
        // A failed write fails the range (after its end, the sink's close reports it).
        wait.then(() => settled || socket.resume(), finish);
        if (delivered < length) socket.pause();
      }
      if (delivered === length) finish();
    };
    const room = (): Uint8Array => {
      const free = sink.room();
      return free.length > length - delivered ? free.subarray(0, length - delivered) : free;
    };
    /** The body bytes that arrived with the head: a few KiB at most, copied. */
    const bodyAfterHead = (from: number): void => {
      while (from < headBytes && !settled) {
        const free = room();
        const n = Math.min(free.length, headBytes - from);
        free.set(head.subarray(from, from + n));
        from += n;
        deliver(n);
      }
    };
    const socket = connect({
      host: target.host,
      port: target.port,
      ...(target.lookup ? { lookup: target.lookup } : {}),
      onread: {
        buffer: () => (inBody ? room() : head.subarray(headBytes)),
        callback: (n: number): boolean => {
          if (settled) return false;
          if (inBody) {
            deliver(n);
            return true;
          }
          headBytes += n;
          const end = head.subarray(0, headBytes).indexOf("\r\n\r\n");
          if (end < 0) {
            if (headBytes === maxHead) finish();
            return !settled;
          }
          if (!expectedHead(head.toString("latin1", 0, end), offset, length, object.ifMatch)) {
            finish();
            return false;
          }
          inBody = true;
          bodyAfterHead(end + 4);
          return !settled;
        },
      },
    });
    // A refused or broken connection: what arrived stands, the SDK path reads (or reports) the rest.
    socket.on("error", () => finish());
    socket.on("close", () => finish());
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.setNoDelay(true);
    // Not end(): a server may take a half-closed connection for a client that left.
    socket.write(requestText(target, object, offset, length));
  });
}
