import { AppError } from "@mc/shared/errors";
import { binaryName, parsePlatform, type Platform } from "./names.js";
import type { PublishDeps, PublishRequest } from "./publish-release.js";

/**
 * A platform's binary as the first pass saw it. Its bytes are not kept:
 * each pass reads one binary at a time, so publishing holds one binary in
 * memory, not all of them, and the second read must hash to the same value.
 */
export interface Binary extends Platform {
  readonly source: string;
  readonly size: number;
  readonly sha256: string;
  /** The minisign signature, when the publish signs. */
  readonly signature: string | undefined;
}

/** Every platform's binary, each read, hashed and (with `sign`) signed in turn. */
export async function listBinaries(req: PublishRequest, deps: PublishDeps, sign?: (bytes: Uint8Array) => string): Promise<Binary[]> {
  const out: Binary[] = [];
  for (const name of await req.source.list()) {
    if (name.includes(".")) continue; // documents sit beside the platform folders
    const platform = parsePlatform(name);
    if (!platform) throw new AppError("invalid_argument", `unknown platform folder '${name}': want <os>-<arch> with Go tokens`);
    const expected = binaryName(req.component, platform.os);
    const files = await req.source.listDir(name);
    if (files.length !== 1 || files[0] !== expected) {
      throw new AppError("invalid_argument", `${name}/ must hold exactly one binary named '${expected}', found: ${files.join(", ") || "nothing"}`);
    }
    const source = `${name}/${expected}`;
    const bytes = await req.source.read(source);
    // An empty file is a build that failed on the way (a truncated copy, a redirect into it):
    // published, every download would be a "binary" that cannot run, with a valid signature.
    if (bytes.byteLength === 0) throw new AppError("invalid_argument", `${source} is empty: a release binary cannot be 0 bytes (nothing was published)`);
    out.push({ ...platform, source, size: bytes.byteLength, sha256: deps.sha256Hex(bytes), signature: sign?.(bytes) });
  }
  if (out.length === 0) throw new AppError("invalid_argument", "no platform folder: publish at least one <os>-<arch>/<binary>");
  return out;
}

/** The binary's bytes again, refused unless they are the bytes the first pass hashed. */
export async function readAgain(req: PublishRequest, b: Binary, deps: PublishDeps): Promise<Uint8Array> {
  const bytes = await req.source.read(b.source);
  if (deps.sha256Hex(bytes) !== b.sha256) throw new AppError("aborted", `${b.source} changed while it was being published (the catalog is unchanged): run the publish again`);
  return bytes;
}
