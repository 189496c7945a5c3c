import { createHash } from "node:crypto";
import { damaged } from "@mc/consensus";

export const rootKeyFileName = "root-key.json";
export type StorageMode = "single" | "cluster";

/**
 * `root-key.json`: the root encryption key wrapped by the HSM, the store id
 * every other file of the directory is bound to, and whether the directory
 * belongs to a single node or a cluster member. One canonical line with a
 * checksum, so a changed byte is reported as damage rather than taken for
 * another HSM key. The first format (`version: 1`, no store id, no sum) is
 * still read; such a directory is being (or about to be) rewritten.
 */
export interface RootKeyFile {
  readonly version: 1 | 2;
  /** Undefined in the first format (it did not say). */
  readonly mode: StorageMode | undefined;
  readonly hsm: string;
  readonly wrapped: Uint8Array;
  /** Undefined in the first format. */
  readonly storeId: Uint8Array | undefined;
  /** Set while first-format files are being rewritten: they may still be present. */
  readonly migrating: boolean;
}

interface V2Body {
  version: 2;
  mode: StorageMode;
  hsm: string;
  store: string;
  wrapped: string;
  migrating?: true;
}

const sumOf = (body: V2Body): string => createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 16);

export function encodeRootKeyFile(f: { mode: StorageMode; hsm: string; wrapped: Uint8Array; storeId: Uint8Array; migrating?: boolean }): Uint8Array {
  const body: V2Body = {
    version: 2,
    mode: f.mode,
    hsm: f.hsm,
    store: Buffer.from(f.storeId).toString("hex"),
    wrapped: Buffer.from(f.wrapped).toString("base64"),
    ...(f.migrating ? { migrating: true as const } : {}),
  };
  return new TextEncoder().encode(`${JSON.stringify({ ...body, sum: sumOf(body) })}\n`);
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

const isB64 = (s: unknown): s is string => typeof s === "string" && s.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);

/** Parses the file strictly: anything but the exact canonical bytes is damage. */
export function parseRootKeyFile(buf: Uint8Array): RootKeyFile {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(buf)) as Record<string, unknown>;
    if (typeof json !== "object" || json === null) throw new Error("not an object");
  } catch {
    throw damaged(rootKeyFileName, 0, "not a root key file (unreadable JSON)");
  }
  if (json.version === 1 && typeof json.hsm === "string" && isB64(json.wrapped)) {
    const canonical = new TextEncoder().encode(`${JSON.stringify({ version: 1, hsm: json.hsm, wrapped: json.wrapped })}\n`);
    if (firstDifference(canonical, buf) !== Math.max(canonical.length, buf.length)) throw damaged(rootKeyFileName, firstDifference(canonical, buf), "not in its canonical form");
    return { version: 1, mode: undefined, hsm: json.hsm, wrapped: new Uint8Array(Buffer.from(json.wrapped, "base64")), storeId: undefined, migrating: false };
  }
  const { mode, hsm, store, wrapped, migrating } = json;
  const valid = json.version === 2 && (mode === "single" || mode === "cluster") && typeof hsm === "string" && typeof store === "string" && /^[0-9a-f]{32}$/.test(store) && isB64(wrapped) && (migrating === undefined || migrating === true);
  if (!valid) throw damaged(rootKeyFileName, 0, "not a root key file (unknown version or fields)");
  const storeId = new Uint8Array(Buffer.from(store, "hex"));
  const decoded = new Uint8Array(Buffer.from(wrapped, "base64"));
  const canonical = encodeRootKeyFile({ mode, hsm, wrapped: decoded, storeId, migrating: migrating === true });
  const at = firstDifference(canonical, buf);
  if (at !== Math.max(canonical.length, buf.length)) throw damaged(rootKeyFileName, at, "checksum mismatch");
  return { version: 2, mode, hsm, wrapped: decoded, storeId, migrating: migrating === true };
}
