import type { AdminClient, AdminRequest } from "./admin-client.js";

/**
 * Splits a byte stream into top-level JSON values as they complete, the way
 * Go's json.Decoder reads MinIO's streaming answers (trace, log, metrics):
 * values back to back, newlines or keep-alive spaces between them, split
 * anywhere by the network. Each `push` returns the values completed so far.
 */
export interface JsonSplitter {
  push(chunk: Buffer): unknown[];
  /** Text of a value begun but not ended (a stream cut short), "" when none. */
  pending(): string;
}

export function createJsonSplitter(): JsonSplitter {
  let buf: Buffer = Buffer.alloc(0);
  let pos = 0; // next byte to scan
  let start = -1; // first byte of the current value
  let depth = 0;
  let inString = false;
  let escaped = false;
  return {
    push(chunk) {
      buf = pos === buf.length && start < 0 ? chunk : Buffer.concat([buf, chunk]);
      const out: unknown[] = [];
      const done = (end: number): void => {
        out.push(JSON.parse(buf.subarray(start, end).toString("utf8")) as unknown);
        start = -1;
      };
      for (; pos < buf.length; pos++) {
        const c = buf[pos] ?? 0;
        if (start < 0) {
          if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
          start = pos;
          depth = 0;
          inString = false;
          escaped = false;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) {
            inString = false;
            if (depth === 0) done(pos + 1);
          }
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          depth--;
          if (depth === 0) done(pos + 1);
        } else if (depth === 0 && (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c)) {
          // A bare scalar (a number, true, null) ends at white space.
          done(pos);
        }
      }
      // Keep only what is still needed.
      const keep = start < 0 ? buf.length : start;
      buf = buf.subarray(keep);
      pos -= keep;
      if (start >= 0) start -= keep;
      return out;
    },
    pending() {
      return start < 0 ? "" : buf.subarray(start).toString("utf8");
    },
  };
}

/**
 * Follows a streamed admin answer, handing each JSON value to `each` as it
 * arrives; `each` returns false to stop (the connection is closed). Resolves
 * with "ended" when the server ended the answer, "stopped" when `each` did.
 * A value cut short by the end of the answer, or one that is not JSON,
 * rejects.
 */
export async function followJson(client: AdminClient, req: Omit<AdminRequest, "onChunk">, each: (value: unknown) => boolean | void): Promise<"ended" | "stopped"> {
  const splitter = createJsonSplitter();
  let stopped = false;
  let bad: unknown;
  await client.request({
    ...req,
    onChunk: (chunk, stop) => {
      if (stopped) return;
      let values: unknown[] = [];
      try {
        values = splitter.push(chunk);
      } catch (err) {
        bad = new Error(`the stream is damaged: ${(err as Error).message}`);
        stopped = true;
      }
      try {
        for (const v of values) {
          if (stopped) break;
          if (each(v) === false) stopped = true;
        }
      } catch (err) {
        bad ??= err;
        stopped = true;
      }
      if (stopped) stop();
    },
  });
  if (bad !== undefined) throw bad;
  if (stopped) return "stopped";
  if (splitter.pending() !== "") throw new Error("the stream is damaged: it ends inside a record");
  return "ended";
}

export interface StreamEnd {
  /** `stop` was called (the caller had what it wanted), else the server ended the answer. */
  readonly stopped: boolean;
}

/** followJson with a `stop` callback instead of a return value (the speedtest, metrics and trace-statistics readers). */
export async function streamJson(client: AdminClient, req: Omit<AdminRequest, "onChunk">, each: (value: unknown, stop: () => void) => void): Promise<StreamEnd> {
  const end = await followJson(client, req, (value) => {
    let halted = false;
    each(value, () => {
      halted = true;
    });
    return halted ? false : undefined;
  });
  return { stopped: end === "stopped" };
}
