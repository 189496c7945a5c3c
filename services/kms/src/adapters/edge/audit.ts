import { createWriteStream, type WriteStream } from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import type { AuditFacts } from "../../domain/audit-scope.js";

export interface AuditEvent {
  readonly ip: string;
  readonly enclave: string;
  readonly path: string;
  readonly identity: string;
  readonly code: number;
  readonly micros: number;
}

const maxBacklogBytes = 4 * 1024 * 1024;

/** RFC 3339 UTC with microseconds. */
function timestamp(): string {
  const iso = new Date().toISOString();
  const micros = String(Math.floor((performance.now() * 1000) % 1000)).padStart(3, "0");
  return `${iso.slice(0, 23)}${micros}Z`;
}

/**
 * The audit log (contract §9): one JSON line per request to the configured
 * sink and to every `/v1/log/audit` subscriber. Only the fields below are
 * written; bodies (plaintexts, ciphertexts, keys) never reach it.
 */
export function createAuditLog(sink: string, onFailure: (err: Error) => void = () => undefined) {
  const out: WriteStream | NodeJS.WriteStream | undefined =
    sink === "off" || sink === "" ? undefined : sink === "stdout" ? process.stdout : createWriteStream(sink, { flags: "a", mode: 0o600 });
  // A file that cannot be written (a full disk) fails closed: the edge refuses every request
  // from then on rather than serve keys unaudited (an unhandled stream error crashed the node).
  let failed: Error | undefined;
  if (out && out !== process.stdout) {
    out.on("error", (err) => {
      if (failed) return;
      failed = err;
      onFailure(err);
    });
  }
  const subscribers = new Set<PassThrough>();
  // Lines of one event-loop turn go out in one write: a syscall per request
  // would cost more than the request itself.
  let pending: string[] = [];
  const flush = (): void => {
    const text = pending.join("");
    pending = [];
    if (!failed) out?.write(text);
  };
  return {
    /** Why the audit file cannot be written, once a write failed; undefined while it can. */
    failure: (): string | undefined => failed?.message,
    record(e: AuditEvent): void {
      if (!out && subscribers.size === 0) return;
      const line = `${JSON.stringify({
        time: timestamp(),
        request: { ip: e.ip, enclave: e.enclave, path: e.path, identity: e.identity },
        response: { code: e.code, time: e.micros },
      })}\n`;
      if (out) {
        if (pending.length === 0) setImmediate(flush);
        pending.push(line);
      }
      for (const s of subscribers) {
        // A subscriber that stops reading would otherwise hold every event
        // from then on in memory: past the backlog limit its stream ends.
        if (s.writableLength > maxBacklogBytes) {
          subscribers.delete(s);
          s.end();
        } else {
          s.write(line);
        }
      }
    },
    subscribe(signal: AbortSignal): Readable {
      const stream = new PassThrough();
      subscribers.add(stream);
      const stop = () => {
        subscribers.delete(stream);
        stream.end();
      };
      // A reader that stops early destroys the stream: no more writes to it.
      stream.once("close", () => subscribers.delete(stream));
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      return stream;
    },
    close(): Promise<void> {
      for (const s of subscribers) s.end();
      subscribers.clear();
      if (pending.length > 0) flush();
      if (!out || out === process.stdout) return Promise.resolve();
      return new Promise((resolve) => (out as WriteStream).end(resolve));
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** One audit line as written (contract §9). */
export interface AuditRecord {
  readonly time: string;
  readonly request: { readonly ip: string; readonly enclave: string; readonly path: string; readonly identity: string };
  readonly response: { readonly code: number; readonly time: number };
}

/**
 * The lines of a subscription that `visible` lets this subscriber see, each
 * with its parsed record. Ends (quietly) when the subscription ends, which
 * is when the client goes away.
 */
export async function* visibleRecords(source: Readable, visible: (e: AuditFacts) => boolean): AsyncGenerator<{ line: string; record: AuditRecord }> {
  let buffered = "";
  for await (const chunk of source) {
    buffered += String(chunk);
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const record = JSON.parse(line) as AuditRecord;
      if (visible(record.request)) yield { line, record };
    }
  }
}

/** The NDJSON body of `GET /v1/log/audit`. */
export async function* auditNdjson(records: AsyncIterable<{ line: string }>): AsyncGenerator<Uint8Array> {
  for await (const { line } of records) yield Buffer.from(`${line}\n`);
}
