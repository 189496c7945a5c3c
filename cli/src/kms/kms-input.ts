import { dataStdin } from "../core/stdin.js";

/** All of standard input as text (a key piped in, a policy file on `-`). */
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of dataStdin()) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}
