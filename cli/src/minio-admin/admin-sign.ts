import { createHash, createHmac } from "node:crypto";

/**
 * SigV4 for admin requests, signed as madmin does (minio-go `SignV4`):
 * every header but Authorization, User-Agent and Accept-Encoding is signed
 * (Content-Length is no header in Go, so it is not signed either); the
 * payload's SHA-256 is always signed, never UNSIGNED-PAYLOAD. The minio SDK's
 * signer cannot serve here: it never signs Content-Type, which madmin sends
 * (and signs) on encrypted bodies.
 */
export interface SignInput {
  readonly method: string;
  /** Path as sent (already encoded, never normalised: S3 rules). */
  readonly path: string;
  /** Query as sent (encoded), or "". */
  readonly query: string;
  /** Header names in any case (`host` among them); a repeated header as a list. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: Uint8Array;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
  readonly service?: string;
  readonly date: Date;
  /** A precomputed payload hash (the test vectors); default: SHA-256 of body. */
  readonly payloadHash?: string;
  /**
   * Repeated query keys: AWS sorts their values; minio-go's signer and
   * MinIO's verifier (Go `url.Values.Encode`) keep them in the order sent.
   */
  readonly valueOrder?: "sorted" | "as-sent";
}

const unsigned = new Set(["authorization", "user-agent", "accept-encoding", "content-length"]);
const hmac = (key: Buffer | string, data: string): Buffer => createHmac("sha256", key).update(data, "utf8").digest();
const sha256Hex = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex");

export const amzDate = (d: Date): string => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** `a=1&b=2` sorted by key, then value (the canonical query of SigV4). */
function canonicalQuery(query: string, valueOrder: "sorted" | "as-sent" = "sorted"): string {
  if (query === "") return "";
  return query
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      return at < 0 ? ([pair, ""] as const) : ([pair.slice(0, at), pair.slice(at + 1)] as const);
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : valueOrder === "as-sent" ? 0 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

export interface Signed {
  readonly canonicalRequest: string;
  readonly stringToSign: string;
  readonly authorization: string;
  readonly signedHeaders: string;
}

export function signV4(input: SignInput): Signed {
  const service = input.service ?? "s3";
  const names = new Map<string, string[]>();
  for (const [k, v] of Object.entries(input.headers)) {
    const name = k.toLowerCase();
    if (unsigned.has(name)) continue;
    names.set(name, [...(names.get(name) ?? []), ...(typeof v === "string" ? [v] : v)]);
  }
  const sorted = [...names.keys()].sort();
  const canonicalHeaders = sorted.map((n) => `${n}:${(names.get(n) ?? []).map((v) => v.trim().replace(/\s+/g, " ")).join(",")}\n`).join("");
  const signedHeaders = sorted.join(";");
  const payloadHash = input.payloadHash ?? sha256Hex(input.body);
  const canonicalRequest = [input.method, input.path, canonicalQuery(input.query, input.valueOrder), canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const day = amzDate(input.date).slice(0, 8);
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate(input.date), scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretKey}`, day), input.region), service), "aws4_request");
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return { canonicalRequest, stringToSign, signedHeaders, authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}` };
}

/**
 * The query as madmin sends it (minio-go `s3utils.QueryEncode`): keys sorted,
 * every byte but A-Z a-z 0-9 - _ . ~ percent-encoded (the SigV4 encoding).
 * A key with several values (`user=a&user=b`) keeps their order.
 */
export function encodeQuery(query: Readonly<Record<string, string | readonly string[]>> | undefined): string {
  if (query === undefined) return "";
  const enc = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return Object.keys(query)
    .sort()
    .flatMap((k) => {
      const v = query[k];
      return (typeof v === "string" ? [v] : (v ?? [])).map((one) => `${enc(k)}=${enc(one)}`);
    })
    .join("&");
}

/** The headers to send for an admin request (lowercase names), Authorization included. */
export function signedAdminHeaders(input: Omit<SignInput, "headers" | "date"> & { readonly host: string; readonly sessionToken?: string; readonly extra?: Readonly<Record<string, string>>; readonly date?: Date }): Record<string, string> {
  const date = input.date ?? new Date();
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(input.extra ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    host: input.host,
    "x-amz-content-sha256": sha256Hex(input.body),
    "x-amz-date": amzDate(date),
    ...(input.sessionToken ? { "x-amz-security-token": input.sessionToken } : {}),
  };
  headers["authorization"] = signV4({ ...input, headers, date, valueOrder: "as-sent" }).authorization;
  return headers;
}
