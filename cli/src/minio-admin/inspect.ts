import { crc32 } from "node:zlib";
import type { AdminClient } from "./admin-client.js";

export const inspectCapability = "Inspecting the cluster's raw object data";

/**
 * MinIO's support public key (PKCS#1 RSA, base64 DER), the one upstream mc
 * sends so that inspected data is encrypted for MinIO's engineers only
 * (cmd/support-inspect.go `defaultPublicKey`). `<config dir>/support_public.pem`
 * replaces it, as upstream.
 */
export const minioSupportKey =
  "MIIBCgKCAQEAs/128UFS9A8YSJY1XqYKt06dLVQQCGDee69T+0Tip/1jGAB4z0/3QMpH0MiS8Wjs4BRWV51qvkfAHzwwdU7y6jxU05ctb/H/WzRj3FYdhhHKdzear9TLJftlTs+xwj2XaADjbLXCV1jGLS889A7f7z5DgABlVZMQd9BjVAR8ED3xRJ2/ZCNuQVJ+A8r7TYPGMY3wWvhhPgPk3Lx4WDZxDiDNlFs4GQSaESSsiVTb9vyGe/94CsCTM6Cw9QG6ifHKCa/rFszPYdKCabAfHcS3eTr0GM+TThSsxO7KfuscbmLJkfQev1srfL2Ii2RbnysqIJVWKEwdW05ID8ryPkuTuwIDAQAB";

/** Go's url.QueryEscape (a form value): space as `+`, `!'()*` escaped too. */
function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

export interface Inspected {
  /** The one-time key of the legacy format (1); undefined for data encrypted to the public key (2). */
  readonly key: Buffer | undefined;
  /** What upstream saves: the data after the key (format 1), or the whole stream (format 2). */
  readonly data: Buffer;
}

/**
 * madmin `Inspect`: with a public key, POST /inspect-data with the form
 * `file`, `public-key` (base64), `volume`; without (legacy), GET with
 * `file` and `volume` in the query. The answer's first byte is its format.
 */
export async function inspect(client: AdminClient, volume: string, file: string, publicKey: Buffer | undefined): Promise<Inspected> {
  let res;
  if (publicKey !== undefined) {
    const form = [["file", file], ["public-key", publicKey.toString("base64")], ["volume", volume]].map(([k, v]) => `${k}=${goQueryEscape(v ?? "")}`).join("&");
    res = await client.request({ method: "POST", path: "/inspect-data", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new TextEncoder().encode(form) });
  } else {
    res = await client.request({ method: "GET", path: "/inspect-data", query: { file, volume } });
  }
  const body = res.body;
  if (body[0] === 1) {
    if (body.length < 33) throw new Error("unexpected EOF: the answer ends inside the key");
    return { key: body.subarray(1, 33), data: body.subarray(33) };
  }
  if (body[0] === 2) return { key: undefined, data: body };
  throw new Error("unknown data version");
}

/** upstream's name of a legacy inspect file and its printed key: 4 bytes of CRC-32 (little endian) identify the key. */
export function legacyNaming(key: Buffer): { file: string; keyHex: string } {
  const id = Buffer.alloc(4);
  id.writeUInt32LE(crc32(key) >>> 0, 0);
  return { file: `inspect-data.${id.toString("hex")}.enc`, keyHex: id.toString("hex") + key.toString("hex") };
}

/** A file name from a path: anything but letters, digits, `.`, `_` and `-` becomes `_`. */
export function safeFileName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, "_");
}
