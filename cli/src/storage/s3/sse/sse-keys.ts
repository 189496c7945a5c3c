import { createHash } from "node:crypto";
import { usageError } from "../../../core/errors.js";

/** How the objects under one `alias/prefix` are encrypted. */
export type SseSpec = { readonly kind: "sse-c"; readonly key: Buffer } | { readonly kind: "sse-kms"; readonly keyId: string } | { readonly kind: "sse-s3" };

export interface SseKeys {
  /** The spec of the longest prefix that covers `alias/bucket/key`, if any. */
  forUrl(url: string): SseSpec | undefined;
}

/**
 * An SSE-C key as mc takes it: 32 raw bytes written as base64 (44 characters,
 * or 43 without padding) or as 64 hex digits.
 */
export function parseSseCKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
    const key = Buffer.from(text, "base64");
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

/** `alias/prefix=VALUE[,alias2/prefix2=VALUE2]` entries, checked against the known aliases. */
function entries(flag: string, values: readonly string[], aliases: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const value of values.flatMap((v) => v.split(","))) {
    const at = value.indexOf("=");
    const prefix = at > 0 ? value.slice(0, at).replace(/^\/+/, "") : "";
    const secret = at > 0 ? value.slice(at + 1) : "";
    if (prefix === "" || secret === "") throw usageError(`${flag} needs "alias/prefix=KEY", not \`${value.slice(0, Math.max(at, 0)) || value.slice(0, 20)}…\`.`);
    const alias = prefix.split("/")[0] ?? "";
    if (!aliases.has(alias)) throw usageError(`${flag}: \`${alias}\` is not an alias; the prefix must start with one (alias/bucket/prefix).`);
    out.push([prefix, secret]);
  }
  return out;
}

/** `--enc-s3 alias/prefix[,alias/prefix2]`: the server's own keys, so a prefix and nothing else. */
function s3Prefixes(values: readonly string[], aliases: ReadonlySet<string>): string[] {
  return values.flatMap((v) => v.split(",")).map((value) => {
    const prefix = value.replace(/^\/+/, "");
    if (prefix === "" || prefix.includes("=")) throw usageError(`--enc-s3 takes "alias/prefix" (the server's keys are used), not \`${prefix.split("=")[0] ?? ""}=…\`.`);
    const alias = prefix.split("/")[0] ?? "";
    if (!aliases.has(alias)) throw usageError(`--enc-s3: \`${alias}\` is not an alias; the prefix must start with one (alias/bucket/prefix).`);
    return prefix;
  });
}

/** Keys from `--enc-c`, `--enc-kms` (and MC_ENC_KMS) and `--enc-s3`; undefined when none is given. */
export function parseSseFlags(encC: readonly string[], encKms: readonly string[], aliases: ReadonlySet<string>, encS3: readonly string[] = []): SseKeys | undefined {
  const specs: [string, SseSpec][] = [];
  for (const [prefix, secret] of entries("--enc-c", encC, aliases)) {
    const key = parseSseCKey(secret);
    // Never echo the key itself.
    if (key === undefined) throw usageError(`--enc-c key for \`${prefix}\` must be 32 bytes written as base64 (44 characters) or as 64 hex digits.`);
    specs.push([prefix, { kind: "sse-c", key }]);
  }
  for (const [prefix, keyId] of entries("--enc-kms", encKms, aliases)) specs.push([prefix, { kind: "sse-kms", keyId }]);
  for (const prefix of s3Prefixes(encS3, aliases)) specs.push([prefix, { kind: "sse-s3" }]);
  if (specs.length === 0) return undefined;
  const seen = new Set<string>();
  for (const [prefix] of specs) {
    if (seen.has(prefix)) throw usageError(`more than one encryption key given for \`${prefix}\`.`);
    seen.add(prefix);
  }
  specs.sort((a, b) => b[0].length - a[0].length);
  return { forUrl: (url) => specs.find(([prefix]) => url.startsWith(prefix))?.[1] };
}

/** Headers for PUT and CreateMultipartUpload. */
export function sseWriteHeaders(spec: SseSpec): Record<string, string> {
  if (spec.kind === "sse-kms") return { "X-Amz-Server-Side-Encryption": "aws:kms", "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": spec.keyId };
  if (spec.kind === "sse-s3") return { "X-Amz-Server-Side-Encryption": "AES256" };
  return sseReadHeaders(spec);
}

/** Headers for GET, HEAD and UploadPart: SSE-C needs the key on every one of them, SSE-KMS and SSE-S3 on none. */
export function sseReadHeaders(spec: SseSpec): Record<string, string> {
  if (spec.kind !== "sse-c") return {};
  return {
    "X-Amz-Server-Side-Encryption-Customer-Algorithm": "AES256",
    "X-Amz-Server-Side-Encryption-Customer-Key": spec.key.toString("base64"),
    "X-Amz-Server-Side-Encryption-Customer-Key-Md5": createHash("md5").update(spec.key).digest("base64"),
  };
}
