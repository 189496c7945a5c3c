import { maxHeaderSize, Server, type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { acceptRequestId } from "@mc/shared/node";
import { readRawHead, type RawHotRequest } from "./raw-request-head.js";
import type { HotAnswer, ResponseCache } from "./response-cache.js";

/**
 * The raw lane answers repeated GETs from the cache's hot path on the socket
 * itself, without Node's parser, request and response objects: they were
 * most of what a cached answer cost (a bare node:http server answering from
 * a buffer is slower than the lane). Node keeps everything else: at the
 * first request the lane does not answer, the connection (with the bytes
 * not yet answered) goes to Node's HTTP server for good, as a connection
 * injected through its documented `connection` event.
 *
 * The lane answers only whole, strict request heads (readRawHead) in the
 * order they came, and only while the socket takes its writes: a head split
 * across reads, a cache miss, or a client that does not read its answers
 * hands the connection over. What the lane writes is what Node's hot path
 * writes for the same request, byte for byte but the date and the id.
 */
export interface RawLaneOptions {
  readonly cache: ResponseCache;
  readonly now: () => number;
  /** After each answer the lane sent: metrics and the request log. */
  readonly answered: (req: RawHotRequest, answer: HotAnswer, requestId: string) => void;
  /** A fault of the lane's own; the connection is closed. */
  readonly onError: (err: unknown) => void;
}

export interface RawLaneStats {
  /** Answers the lane sent. */
  answered: number;
  /** Connections it passed to Node's HTTP server. */
  handedOff: number;
}

const headEnd = Buffer.from("\r\n\r\n");
/** Node's answer to a connection that sent no whole request within its request timeout. */
const requestTimeoutAnswer = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";
/** Node waits this much longer than the keep-alive timeout it announces (HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const keepAliveBufferMs = 1000;

const noRead = (): void => undefined;

let utcDate = "";
/** The `Date` value, kept for up to a second as Node keeps its own. */
function dateNow(): string {
  if (utcDate === "") {
    const now = new Date();
    utcDate = now.toUTCString();
    setTimeout(() => (utcDate = ""), 1000 - now.getMilliseconds()).unref();
  }
  return utcDate;
}

/** An HTTP server whose connections start in the raw lane. */
export class RawLaneServer extends Server {
  readonly lane: RawLaneStats = { answered: 0, handedOff: 0 };
  readonly #open = new Set<Socket>();
  /** Longer heads go to Node, which answers 431 as it does for any. */
  readonly #maxHead: number;

  constructor(options: ServerOptions, listener: RequestListener<typeof IncomingMessage, typeof ServerResponse>, lane: RawLaneOptions) {
    super(options, listener);
    this.#maxHead = options.maxHeaderSize ?? maxHeaderSize;
    // Node's own listener (connectionListener) takes what the lane hands over.
    const node = this.listeners("connection") as Array<(socket: Socket) => void>;
    if (node.length !== 1) throw new Error(`node:http registers ${node.length} connection listeners, the raw lane expects one`);
    this.removeAllListeners("connection");
    this.on("connection", (socket: Socket) => {
      // Node announces no keep-alive, or counts requests per socket: it keeps those connections.
      if (this.keepAliveTimeout <= 0 || (this.maxRequestsPerSocket ?? 0) > 0) return node[0]?.call(this, socket);
      this.#keep(socket, lane, (rest) => {
        this.#open.delete(socket);
        this.lane.handedOff++;
        node[0]?.call(this, socket);
        if (rest.length > 0) socket.emit("data", rest);
      });
    });
  }

  /** Also the lane's connections: they are idle whenever JavaScript runs (each answer is written at once). */
  override closeIdleConnections(): void {
    super.closeIdleConnections();
    for (const socket of this.#open) {
      if (socket.writableLength === 0) socket.destroy();
      else socket.end();
    }
  }

  override closeAllConnections(): void {
    super.closeAllConnections();
    for (const socket of this.#open) socket.destroy();
  }

  #keep(socket: Socket, lane: RawLaneOptions, handOff: (rest: Buffer) => void): void {
    this.#open.add(socket);
    const stats = this.lane;
    const maxHead = this.#maxHead;
    const keepAlive = `Keep-Alive: timeout=${Math.floor(this.keepAliveTimeout / 1000)}\r\n\r\n`;
    let answered = false;
    const release = (rest: Buffer): void => {
      socket.removeListener("data", onData).removeListener("end", onEnd).removeListener("timeout", onTimeout);
      socket.removeListener("error", onError).removeListener("close", onClose);
      socket.setTimeout(0);
      // Node's parser reads the socket's handle itself from now on (it "consumes" it), and pauses
      // it by stopping the handle. The stream's own reading, still scheduled after the lane's last
      // chunk, would start the handle again behind a paused parser: Node then fails the
      // connection (HPE_PAUSED) and the answers still owed are lost. The stream reads nothing more.
      socket._read = noRead;
      handOff(rest);
    };
    const read = (chunk: Buffer): void => {
      const now = lane.now();
      for (let at = 0; at < chunk.length; ) {
        const end = chunk.indexOf(headEnd, at);
        const req = end >= 0 && end - at <= maxHead ? readRawHead(chunk.toString("latin1", at, end)) : undefined;
        const answer = req ? lane.cache.hot(req.key, now) : undefined;
        if (!req || !answer) return release(chunk.subarray(at));
        const requestId = acceptRequestId(req.requestId);
        const age = now - answer.storedAt < 1000 ? "0" : String(Math.floor((now - answer.storedAt) / 1000));
        socket.cork();
        socket.write(`${answer.head}age: ${age}\r\nx-request-id: ${requestId}\r\nDate: ${dateNow()}\r\nConnection: keep-alive\r\n${keepAlive}`, "latin1");
        if (req.method === "GET") socket.write(answer.body);
        socket.uncork();
        stats.answered++;
        lane.answered(req, answer, requestId);
        at = end + 4;
        // A client that does not read its answers: Node's server pauses the reading for it.
        if (socket.writableNeedDrain) return release(chunk.subarray(at));
      }
      if (!answered) {
        answered = true;
        socket.setTimeout(this.keepAliveTimeout + keepAliveBufferMs);
      }
    };
    const onData = (chunk: Buffer): void => {
      try {
        read(chunk);
      } catch (err) {
        lane.onError(err);
        socket.destroy();
      }
    };
    // Nothing is ever pending between two reads: the client's end is answered as Node does, by ending ours.
    const onEnd = (): void => void socket.end();
    const onTimeout = (): void => void (answered ? socket.destroy() : socket.end(requestTimeoutAnswer, "latin1"));
    const onError = (): void => void socket.destroy();
    const onClose = (): void => void this.#open.delete(socket);
    socket.setTimeout(this.requestTimeout > 0 ? this.requestTimeout : this.headersTimeout);
    socket.on("data", onData).on("end", onEnd).on("timeout", onTimeout).on("error", onError).on("close", onClose);
  }
}
