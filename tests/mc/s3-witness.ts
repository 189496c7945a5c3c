import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CephRgw } from "../harness/ceph-rgw.js";

export interface Listed {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  readonly storageClass: string;
}

export interface ListedVersion {
  readonly key: string;
  readonly versionId: string;
  readonly isLatest: boolean;
  readonly kind: "version" | "marker";
}

export interface Fetched {
  readonly md5: string;
  readonly size: number;
  /** The bytes, for objects up to 64 KiB. */
  readonly base64: string;
}

/**
 * What the server holds, as botocore (the library of Debian's aws-cli) sees
 * it: the judge of every step, so a bug of ours cannot hide behind our own
 * reading. One Python process serves the whole test file.
 */
export interface S3Witness {
  list(bucket: string, prefix?: string): Promise<Listed[]>;
  versions(bucket: string, prefix?: string): Promise<ListedVersion[]>;
  get(bucket: string, key: string, versionId?: string): Promise<Fetched>;
  put(bucket: string, key: string, body: Buffer): Promise<{ versionId: string }>;
  tagging(bucket: string, key: string): Promise<Record<string, string>>;
  retention(bucket: string, key: string): Promise<{ mode: string; until: string }>;
  legalHold(bucket: string, key: string): Promise<string>;
  createBucket(bucket: string, options?: { lock?: boolean; versioning?: boolean }): Promise<void>;
  close(): void;
}

const script = join(fileURLToPath(new URL(".", import.meta.url)), "s3-witness.py");

export function startWitness(rgw: CephRgw): S3Witness {
  // Debian's python3 is the one whose dist-packages hold aws-cli's botocore.
  const child = spawn("/usr/bin/python3", [script, rgw.endpoint, rgw.accessKey, rgw.secretKey], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line) as { id: number; ok: boolean; result?: unknown; error?: string };
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.ok) w?.resolve(answer.result);
    else w?.reject(new Error(`witness: ${answer.error ?? "failed"}`));
  });
  child.once("exit", (code) => {
    for (const w of waiting.values()) w.reject(new Error(`witness exited with ${code ?? "a signal"}`));
    waiting.clear();
  });
  const ask = <T>(op: string, args: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  return {
    list: (bucket, prefix = "") => ask("list", { bucket, prefix }),
    versions: (bucket, prefix = "") => ask("versions", { bucket, prefix }),
    get: (bucket, key, versionId) => ask("get", { bucket, key, ...(versionId ? { versionId } : {}) }),
    put: (bucket, key, body) => ask("put", { bucket, key, base64: body.toString("base64") }),
    tagging: (bucket, key) => ask("tagging", { bucket, key }),
    retention: (bucket, key) => ask("retention", { bucket, key }),
    legalHold: (bucket, key) => ask("legalHold", { bucket, key }),
    createBucket: async (bucket, options = {}) => {
      await ask("createBucket", { bucket, ...options });
    },
    close: () => child.stdin.end(),
  };
}
