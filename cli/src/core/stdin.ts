import { fstatSync } from "node:fs";
import { mcError } from "./errors.js";

/**
 * Standard input as the data a command reads. A folder given as input
 * (`mc pipe obj < dir`) reads as empty in Node, without an error: `pipe`
 * stored an empty object and exited 0. It is refused instead.
 */
export function dataStdin(): NodeJS.ReadStream {
  let folder = false;
  try {
    folder = fstatSync(0).isDirectory();
  } catch {
    // A closed standard input reads as empty, as it should.
  }
  if (folder) throw mcError("Unable to read standard input: it is a folder.", undefined, "invalid_argument");
  return process.stdin;
}

/** All of standard input (see dataStdin); past `limit.bytes`, `limit.tooLarge()` is thrown instead. */
export async function readStdin(limit?: { readonly bytes: number; tooLarge(): Error }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of dataStdin()) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (limit && size > limit.bytes) throw limit.tooLarge();
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** All of standard input as UTF-8 text (a key piped in, a policy or configuration file given as `-`). */
export async function readStdinText(): Promise<string> {
  return (await readStdin()).toString("utf8");
}
