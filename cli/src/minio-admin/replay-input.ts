import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { isAppError } from "@mc/shared/errors";
import { mcError } from "../core/errors.js";

/**
 * The `--in FILE` of upstream's `admin trace`, `admin scanner status` and
 * `support top rpc`: JSON saved earlier with `--json`, one record a line,
 * replayed instead of asking a server. A `.zst` file is read through the
 * zstd program (upstream decompresses it itself; this Node has no zstd).
 * Lines that are no JSON object are skipped, as upstream skips them.
 */
interface Source {
  readonly input: Readable;
  /** Settles once the input can be read (or cannot). */
  readonly ready: Promise<void>;
  /** Settles when the input is done: a failed decompression rejects. */
  readonly done: Promise<void>;
}

function openSource(file: string, signal: AbortSignal): Source {
  if (!file.endsWith(".zst")) {
    const input = createReadStream(file);
    const ready = new Promise<void>((resolve, reject) => {
      input.once("open", () => resolve());
      input.once("error", reject);
    });
    return { input, ready, done: Promise.resolve() };
  }
  const child = spawn("zstd", ["-dc", "--", file], { stdio: ["ignore", "pipe", "pipe"], signal });
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once("close", (code) => (code === 0 || signal.aborted ? resolve() : reject(new Error(err.trim() || `zstd exited with status ${String(code)}`))));
  });
  return { input: child.stdout, ready, done };
}

export async function replayLines(file: string, signal: AbortSignal, each: (record: Record<string, unknown>) => Promise<void> | void): Promise<void> {
  const source = openSource(file, signal);
  await source.ready.catch((err: unknown) => {
    throw mcError("Unable to open input.", err, "not_found");
  });
  const lines = createInterface({ input: source.input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (signal.aborted) break;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof v === "object" && v !== null && !Array.isArray(v)) await each(v as Record<string, unknown>);
    }
    await source.done;
  } catch (err) {
    if (signal.aborted) return;
    // The caller's own failures pass as they are; only reading is "input".
    if (isAppError(err)) throw err;
    throw mcError("Unable to read input.", err, "invalid_argument");
  }
}

/**
 * upstream's replay pace: each record after the one before by the gap
 * between their collection times, at most three seconds (none when they
 * are equal or go back); Ctrl-C ends the wait.
 */
export function createReplayPace(signal: AbortSignal): (collectedAt: string) => Promise<void> {
  let last = Number.NaN;
  return async (collectedAt) => {
    const at = Date.parse(collectedAt);
    if (!Number.isFinite(at)) return;
    const gap = Number.isFinite(last) ? Math.min(at - last, 3000) : 0;
    last = at;
    if (gap > 0) await sleep(gap, undefined, { signal }).catch(() => undefined);
  };
}
