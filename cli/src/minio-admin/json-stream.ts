import type { AdminClient, AdminRequest } from "./admin-client.js";

/**
 * Splits a stream of concatenated JSON texts (what Go's json.Encoder writes
 * one after another: the admin API's metrics, trace and speedtest answers) as
 * the bytes arrive: each `push` returns the values completed so far, a value
 * cut across chunks waits for the rest. Only objects and arrays are values
 * here; anything else between them is damage.
 */
export interface JsonSplitter {
  push(text: string): string[];
  /** True when a value was begun and not finished (the stream was cut). */
  readonly partial: boolean;
}

export function createJsonSplitter(): JsonSplitter {
  let buffered = "";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  return {
    push(text) {
      const out: string[] = [];
      const from = buffered.length;
      buffered += text;
      for (let i = from; i < buffered.length; i++) {
        const c = buffered[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === "\\") escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') {
          if (depth === 0) throw new Error("the stream holds something other than JSON objects");
          inString = true;
        } else if (c === "{" || c === "[") {
          if (depth === 0) start = i;
          depth++;
        } else if (c === "}" || c === "]") {
          depth--;
          if (depth < 0) throw new Error("unbalanced JSON in the stream");
          if (depth === 0) out.push(buffered.slice(start, i + 1));
        } else if (depth === 0 && c !== undefined && !/\s/.test(c)) {
          throw new Error("the stream holds something other than JSON objects");
        }
      }
      // Keep only the value still open (or nothing).
      if (depth === 0) buffered = "";
      else if (start > 0) {
        buffered = buffered.slice(start);
        start = 0;
      }
      return out;
    },
    get partial() {
      return depth > 0 || inString;
    },
  };
}

export interface StreamEnd {
  /** `stop` was called (the caller had what it wanted), else the server ended the answer. */
  readonly stopped: boolean;
}

/**
 * Sends `req` and hands each JSON value of the streamed 200 answer to `each`
 * as it arrives (decoded). A damaged value, or an answer cut inside a value,
 * is an error. `each` may call `stop` to close the connection.
 */
export async function streamJson(client: AdminClient, req: AdminRequest, each: (value: unknown, stop: () => void) => void): Promise<StreamEnd> {
  const splitter = createJsonSplitter();
  let stopped = false;
  let bad: unknown;
  await client.request({
    ...req,
    onChunk: (chunk, stop) => {
      if (stopped || bad !== undefined) return;
      const halt = (): void => {
        stopped = true;
        stop();
      };
      let values: unknown[];
      try {
        values = splitter.push(chunk.toString("utf8")).map((text) => JSON.parse(text) as unknown);
      } catch (err) {
        bad = new Error(`the server's stream is damaged: ${(err as Error).message}`);
        stop();
        return;
      }
      for (const value of values) {
        try {
          each(value, halt);
        } catch (err) {
          bad = err;
          stop();
          return;
        }
        if (stopped) return;
      }
    },
  });
  if (bad !== undefined) throw bad;
  if (!stopped && splitter.partial) throw new Error("the server's stream ends inside a record");
  return { stopped };
}
