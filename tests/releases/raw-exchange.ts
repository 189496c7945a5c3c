import { connect, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

export interface RawAnswer {
  readonly status: number;
  /** The status line and header lines as sent. */
  readonly head: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The whole answers at the start of `data` (`bodiless`: the indexes of answers to HEAD), and the bytes after them. */
function parseAnswers(data: Buffer, bodiless: ReadonlySet<number>, answers: RawAnswer[] = []): { answers: RawAnswer[]; rest: Buffer } {
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const head = data.subarray(at, end).toString("latin1");
    const [statusLine = "", ...lines] = head.split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
    const status = Number(statusLine.split(" ")[1]);
    const length = bodiless.has(answers.length) || status === 304 || status === 100 ? 0 : Number(headers["content-length"] ?? 0);
    if (end + 4 + length > data.length) break;
    answers.push({ status, head, headers, body: data.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return { answers, rest: data.subarray(at) };
}

/**
 * Writes `requests` (HTTP/1.1 text, several pipelined in one write) on one
 * connection and reads every answer until the server closes it. `bodiless`
 * says which answers have no body whatever their content-length (HEAD).
 */
export function rawExchange(port: number, requests: string, bodiless: ReadonlySet<number>): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect(port, "127.0.0.1", () => s.write(requests));
    s.on("data", (c: Buffer) => chunks.push(c));
    s.on("error", reject);
    s.on("close", () => {
      const { answers, rest } = parseAnswers(Buffer.concat(chunks), bodiless);
      if (rest.length > 0) reject(new Error(`a partial answer: ${rest.toString()}`));
      else resolve(answers);
    });
  });
}

export interface RawAnswers {
  readonly answers: RawAnswer[];
  /** The connection, still open unless the server closed it (the caller ends it). */
  readonly socket: Socket;
  /** The server closed the connection. */
  readonly closed: boolean;
}

export interface TalkOptions {
  /** The indexes of answers to HEAD (no body). */
  readonly bodiless?: ReadonlySet<number>;
  /** Between two writes. */
  readonly gapMs?: number;
  /** Reads nothing for this long after the last write: the server's answers queue up meanwhile. */
  readonly holdMs?: number;
  /** Ends the client's side after the last write. */
  readonly end?: boolean;
}

/**
 * Writes each of `writes` on one connection and resolves once `count` whole
 * answers came back, or the server closed the connection, or `waitMs` passed:
 * whichever is first. The connection is left as it is.
 */
export function rawTalk(port: number, writes: ReadonlyArray<string | Buffer>, count: number, waitMs: number, options: TalkOptions = {}): Promise<RawAnswers> {
  return new Promise((resolve, reject) => {
    // Parsed as they come, the bytes of a partial answer kept for the next read.
    const answers: RawAnswer[] = [];
    let rest: Buffer = Buffer.alloc(0);
    const bodiless = options.bodiless ?? new Set<number>();
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      resolve({ answers, socket: s, closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    const s = connect(port, "127.0.0.1", () => {
      void (async () => {
        if (options.holdMs) s.pause();
        for (const [i, w] of writes.entries()) {
          if (i > 0 && options.gapMs) await delay(options.gapMs);
          if (!s.destroyed) s.write(w);
        }
        if (options.end) s.end();
        if (options.holdMs) setTimeout(() => s.resume(), options.holdMs);
      })();
    });
    s.on("data", (c: Buffer) => {
      rest = parseAnswers(rest.length > 0 ? Buffer.concat([rest, c]) : c, bodiless, answers).rest;
      if (answers.length >= count) done(false);
    });
    s.on("error", reject);
    s.on("close", () => done(true));
  });
}

/** rawTalk that must get its `count` answers (within 10 s) before the server closes. */
export async function rawAnswers(port: number, writes: ReadonlyArray<string | Buffer>, count: number, options: TalkOptions = {}): Promise<RawAnswers> {
  const got = await rawTalk(port, writes, count, 10_000, options);
  if (got.answers.length < count) throw new Error(`${got.answers.length} of ${count} answers (${got.closed ? "closed" : "timed out"})`);
  return got;
}
