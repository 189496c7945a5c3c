import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Request bodies are read by the listener itself, before routing and before
 * authentication, so that no handler (the REST table, a Connect adapter with
 * its own 4 GiB default) ever buffers more than the limit.
 */

/** True when the request announces a body: any Transfer-Encoding, or a Content-Length other than 0. */
export function announcesBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

export type BodyRead =
  | { readonly kind: "read"; readonly body: Buffer }
  /** Over the limit: the rest is left unread and the connection must be closed. */
  | { readonly kind: "too_large" }
  /** The client went away (or the request timed out) before the body ended. */
  | { readonly kind: "gone" };

/**
 * Reads the body while counting it: refuses at once when Content-Length is
 * over the limit, and at the first chunk past it otherwise (chunked bodies),
 * so at most `limit` bytes are ever held.
 */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<BodyRead> {
  if (Number(req.headers["content-length"]) > limit) return Promise.resolve({ kind: "too_large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: BodyRead): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Paused, not destroyed: destroying the request would drop the socket before the 413 is written.
      req.pause();
      chunks.length = 0;
      settle({ kind: "too_large" });
    };
    const onEnd = (): void => settle({ kind: "read", body: Buffer.concat(chunks, size) });
    const onGone = (): void => settle({ kind: "gone" });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("close", onGone);
  });
}

const readBodies = new WeakMap<IncomingMessage, Buffer>();

/** The body withBodyWithin has read already: the REST table takes it without another pass through the stream. */
export const bodyReadFor = (req: IncomingMessage): Buffer | undefined => readBodies.get(req);

/**
 * Hands the body already read to whoever iterates the request next: the REST
 * table and connect-node both consume a request with `for await`, so they
 * need no other way in, and no second copy is made.
 */
export function replayBody(req: IncomingMessage, body: Buffer): void {
  readBodies.set(req, body);
  Object.defineProperty(req, Symbol.asyncIterator, {
    configurable: true,
    value: async function* replay(): AsyncGenerator<Buffer> {
      if (body.byteLength > 0) yield body;
    },
  });
}

/**
 * Runs `next` with the body once it is read within `limit` (at once, with an
 * empty body, when none is announced, so body-less hot paths stay
 * synchronous); over the limit `tooLarge` answers and the connection closes.
 */
export function withBodyWithin(req: IncomingMessage, res: ServerResponse, limit: number, tooLarge: () => void, next: (body: Buffer) => void): void {
  if (!announcesBody(req)) {
    next(noBody);
    return;
  }
  void readBodyWithin(req, limit).then((read) => {
    // A timeout may have answered while the body was still coming.
    if (res.writableEnded || res.destroyed) return;
    if (read.kind === "too_large") tooLarge();
    else if (read.kind === "read") {
      replayBody(req, read.body);
      next(read.body);
    }
  });
}

const noBody = Buffer.alloc(0);

/** How long a closing connection stays open, unread, after its answer: the client's time to read it. */
const closeGraceMs = 1000;

/**
 * Node closes a `Connection: close` answer's socket as soon as the answer is
 * flushed. With body bytes still unread that close is a reset, and a client
 * that is still sending sees ECONNRESET or EPIPE instead of the answer. So
 * the write side is shut at once (FIN) and the socket destroyed a moment
 * later, or earlier when the client closes its side.
 */
function closeAfterGrace(socket: Socket): void {
  socket.destroySoon = function closeSoon(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), closeGraceMs);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}

/**
 * Writes a JSON answer and closes the connection after it: used when the
 * rest of the request (an oversized or stalled body) must never be read.
 */
export function answerAndClose(res: ServerResponse, status: number, contentType: string, body: object): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (res.socket) closeAfterGrace(res.socket);
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": contentType, "content-length": String(Buffer.byteLength(text)), connection: "close" });
  res.end(text);
}
