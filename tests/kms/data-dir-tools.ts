import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Every file and folder under `dir` with its mode, size, mtime and SHA-256:
 * equal fingerprints mean not a byte, a name or a permission changed.
 */
export async function fingerprint(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(join(dir, rel))).sort()) {
      const path = join(dir, rel, name);
      const s = await stat(path);
      const mode = (s.mode & 0o7777).toString(8);
      if (s.isDirectory()) {
        out.push(`${join(rel, name)}/ ${mode}`);
        await walk(join(rel, name));
      } else {
        const sum = createHash("sha256").update(await readFile(path)).digest("hex");
        out.push(`${join(rel, name)} ${mode} ${s.size} ${s.mtimeMs} ${sum}`);
      }
    }
  };
  await walk("");
  return out;
}

export interface RecordSpan {
  readonly offset: number;
  readonly size: number;
}

const v2Magic = Buffer.from("mcrec2\n\0");
/** Record files of the current format: a 128-byte header (file header and two commit marks), then records with a 24-byte header. */
export const v2 = { fileHeader: 128, recordHeader: 24 } as const;

/**
 * The records of a KMS log or a Raft segment, in either format: today's
 * (v2: file header, then `u32 length` + 20 more header bytes + body) or the
 * first one (v1 log.bin: `u32 length` + body; v1 segments: 17-byte header).
 */
export function recordSpans(buf: Buffer, v1HeaderBytes = 4): RecordSpan[] {
  const isV2 = buf.length >= 8 && buf.subarray(0, 8).equals(v2Magic);
  const header = isV2 ? v2.recordHeader : v1HeaderBytes;
  const spans: RecordSpan[] = [];
  let at = isV2 ? v2.fileHeader : 0;
  while (at + 4 <= buf.length) {
    const size = header + buf.readUInt32BE(at);
    if (at + size > buf.length) break;
    spans.push({ offset: at, size });
    at += size;
  }
  return spans;
}

/**
 * Runs `kms ARGS` expecting it to exit; a node that starts instead (and so
 * would run forever) is killed after `timeoutMs` and reported with code null.
 */
export async function runKmsToExit(kmsBin: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 15000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { startProcess } = await import("../harness/processes.js");
  const proc = startProcess(process.execPath, [kmsBin, ...args], { env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  proc.child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
  proc.child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.child.once("close", (c) => resolve(c)));
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref());
  const first = await Promise.race([exited, timer]);
  if (first === "timeout") {
    await proc.stop();
    return { code: null, stdout, stderr: `${stderr}(still running after ${timeoutMs} ms: it started)\n` };
  }
  return { code: first, stdout, stderr };
}

/**
 * Where each sealed chunk of a chunked blob (mcblob3: a 64-byte header with
 * the body length at 40 and the chunk length at 48, then per chunk the
 * sealed bytes, 41 more than its plain bytes, and a crc32) starts; none for
 * other files.
 */
export function blobChunkStarts(buf: Buffer): number[] {
  if (buf.length < 64 || !buf.subarray(0, 8).equals(Buffer.from("mcblob3\n"))) return [];
  const body = Number(buf.readBigUInt64BE(40));
  const chunk = buf.readUInt32BE(48);
  const starts: number[] = [];
  for (let i = 0, at = 64; i < Math.max(1, Math.ceil(body / chunk)); i++) {
    starts.push(at);
    at += Math.min(chunk, body - i * chunk) + 41 + 4;
  }
  return starts;
}
