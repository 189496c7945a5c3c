import { readFileSync } from "node:fs";
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

export interface RawTarget {
  readonly port: number;
  /** Present: TLS with this CA (and the client certificate, if given). */
  readonly tls?: { readonly ca: string | Buffer; readonly cert?: string; readonly key?: string };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface UploadResult extends RawAnswer {
  /** Body bytes written to the socket when the answer was complete. */
  readonly sentAtAnswer: number;
  /** The server ended or reset the connection within `closeWaitMs` of answering. */
  readonly closedByServer: boolean;
  /** Peak growth of the server's resident memory while the body streamed (0 without `pid`). */
  readonly rssGrowth: number;
}

export interface UploadOptions {
  readonly path: string;
  /** Request headers besides Host and the framing ones. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Body bytes offered in total, produced chunk by chunk (never allocated at once). */
  readonly total: number;
  /** Declare the total as Content-Length; otherwise the body is chunked. */
  readonly declareLength: boolean;
  /** The server process whose VmRSS is sampled. */
  readonly pid?: number;
  /** Stop sending (without ending the body) after this many bytes: a stalled client. */
  readonly stallAfter?: number;
  readonly closeWaitMs?: number;
  readonly timeoutMs?: number;
}

function open(target: RawTarget): Socket {
  if (!target.tls) return netConnect({ port: target.port, host: "127.0.0.1", allowHalfOpen: true });
  const { ca, cert, key } = target.tls;
  return tlsConnect({ port: target.port, host: "127.0.0.1", ca, ...(cert && key ? { cert, key } : {}) });
}

/** Resident memory of a process in bytes, from /proc (Linux). */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Parses one HTTP/1.1 answer with a Content-Length body, or undefined while incomplete. */
function parseAnswer(data: Buffer): RawAnswer | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  if (data.length < end + 4 + length) return undefined;
  return { status: Number(statusLine.split(" ")[1]), headers, body: data.subarray(end + 4, end + 4 + length).toString("utf8") };
}

/**
 * POSTs a large body from a generator over a raw socket, so the test sees
 * exactly when the answer arrives relative to the bytes sent and whether the
 * server, not the client, closes the connection afterwards.
 */
export function uploadLargeBody(target: RawTarget, o: UploadOptions): Promise<UploadResult> {
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const framing = o.declareLength ? `Content-Length: ${o.total}` : "Transfer-Encoding: chunked";
  const extra = Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const head = `POST ${o.path} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n${extra}${framing}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = open(target);
    const baseline = o.pid ? rssOf(o.pid) : 0;
    let peak = baseline;
    const sampler = setInterval(() => {
      if (o.pid) peak = Math.max(peak, rssOf(o.pid));
    }, 20);
    let received = Buffer.alloc(0);
    let sent = 0;
    let answer: (RawAnswer & { sentAtAnswer: number }) | undefined;
    let closed = false;
    let settled = false;
    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      clearTimeout(overall);
      socket.destroy();
      if (!answer) return reject(err ?? new Error(`no answer after ${sent} bytes`));
      resolve({ ...answer, closedByServer: closed, rssGrowth: o.pid ? peak - baseline : 0 });
    };
    const overall = setTimeout(() => finish(new Error(`timed out after ${sent} bytes`)), o.timeoutMs ?? 60_000);
    const onClosed = (): void => {
      closed = true;
      if (answer) finish();
      else setTimeout(() => finish(new Error(`closed without an answer after ${sent} bytes`)), 50);
    };
    socket.on("data", (c: Buffer) => {
      received = Buffer.concat([received, c]);
      if (answer) return;
      const parsed = parseAnswer(received);
      if (!parsed) return;
      answer = { ...parsed, sentAtAnswer: sent };
      if (closed) finish();
      else setTimeout(() => finish(), o.closeWaitMs ?? 2000);
    });
    socket.on("end", onClosed);
    socket.on("error", onClosed);
    socket.on("close", onClosed);
    const write = async (): Promise<void> => {
      if (!socket.write(head)) await new Promise((r) => socket.once("drain", r));
      const limit = Math.min(o.total, o.stallAfter ?? o.total);
      while (sent < limit && !answer && !closed && !settled) {
        const piece = limit - sent < chunk.length ? chunk.subarray(0, limit - sent) : chunk;
        const framed = o.declareLength ? [piece] : [Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")];
        let ok = true;
        for (const part of framed) ok = socket.write(part) && ok;
        sent += piece.length;
        if (!ok) {
          await new Promise<void>((r) => {
            const go = (): void => {
              socket.off("drain", go);
              socket.off("data", go);
              socket.off("close", go);
              r();
            };
            socket.on("drain", go);
            socket.on("data", go);
            socket.on("close", go);
          });
        }
      }
      if (!answer && !closed && !settled && !o.declareLength && o.stallAfter === undefined) socket.write("0\r\n\r\n");
    };
    socket.once(target.tls ? "secureConnect" : "connect", () => void write().catch(() => undefined));
  });
}

/** Sends raw request text and resolves the parsed answer (or rejects when the connection ends without one). */
export function rawRequest(target: RawTarget, text: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = open(target);
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer in time"));
    }, timeoutMs);
    const done = (answer: RawAnswer | undefined, err?: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolve(answer);
      else reject(err ?? new Error(`connection ended without an answer: ${received.toString("latin1").slice(0, 200)}`));
    };
    socket.once(target.tls ? "secureConnect" : "connect", () => socket.write(text));
    socket.on("data", (c: Buffer) => {
      received = Buffer.concat([received, c]);
      const parsed = parseAnswer(received);
      if (parsed) done(parsed);
    });
    socket.on("error", (e) => done(parseAnswer(received), e));
    socket.on("close", () => done(parseAnswer(received)));
  });
}
