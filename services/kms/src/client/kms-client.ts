import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Agent, request } from "node:https";
import { clientCertificateOf, parseApiKey } from "../adapters/tls/api-key.js";
import { mapTlsError } from "./tls-errors.js";

export interface KmsClientOptions {
  /** `HOST:PORT` or `https://HOST:PORT`. */
  readonly server: string;
  /** Further cluster nodes `call` fails over to (contract §10). */
  readonly fallbacks?: readonly string[];
  /** A `k1:` (or KES `kes:v1:`) API key; turned into a self-signed client certificate. */
  readonly apiKey?: string;
  /** Or client certificate files. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** PEM of the CA to trust (default: the system's). */
  readonly ca?: string | Buffer;
  readonly enclave?: string;
  /** Per-request timeout; default 15 s. */
  readonly timeoutMs?: number;
  /** Keep-alive sockets per client; default 64. */
  readonly maxSockets?: number;
}

/** An answer other than 2xx: the status and the server's `message`. */
export class KmsClientError extends Error {
  override readonly name = "KmsClientError";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface KmsResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

export interface KmsClient {
  readonly identity: string | undefined;
  /** Raw call: never throws on HTTP status, only on network/TLS errors (mapped). */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<KmsResponse>;
  /** JSON call: throws KmsClientError on a non-2xx answer. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  createKey(name: string): Promise<void>;
  generate(name: string, context?: Uint8Array): Promise<{ plaintext: string; ciphertext: string; version: number }>;
  decrypt(name: string, ciphertext: string, context?: Uint8Array): Promise<{ plaintext: string; version: number }>;
  close(): void;
}

/** What a server answers when a write's outcome is unknown (contract §5 as services/kms/README.md words it). */
export const outcomeUnknownMessage = "outcome unknown: the change may have been applied; retry with the same request id";

/** A 503 refuses a write before any log held it, unless it says the change committed (contract §5). */
function certainlyNotApplied(res: KmsResponse): boolean {
  return res.status === 503 && !res.body.toString("utf8").includes("change committed");
}

/**
 * A 503 says "certainly not applied", but only of its own attempt: after an
 * attempt whose outcome is unknown (a 504, another 5xx, a lost connection)
 * the write may have been applied, so the caller is told 504 instead.
 */
function honest(res: KmsResponse, earlierUnknown: boolean): KmsResponse {
  if (!certainlyNotApplied(res) || !earlierUnknown) return res;
  const body = Buffer.from(JSON.stringify({ message: outcomeUnknownMessage }));
  return { status: 504, headers: { "content-type": "application/json", "content-length": String(body.length) }, body };
}

/** The KMS client library (used by `mc admin kms`): mTLS with an API key or certificate files. */
export async function createKmsClient(o: KmsClientOptions): Promise<KmsClient> {
  const urls = [o.server, ...(o.fallbacks ?? [])].map((s) => new URL(s.includes("://") ? s : `https://${s}`));
  let cert: string | Buffer | undefined;
  let key: string | Buffer | undefined;
  let identity: string | undefined;
  if (o.apiKey !== undefined) {
    const seed = parseApiKey(o.apiKey);
    if (!seed) throw new Error("invalid API key: expected k1:<base64url>");
    const c = await clientCertificateOf(seed);
    ({ cert, key, identity } = c);
  } else if (o.certFile && o.keyFile) {
    [cert, key] = await Promise.all([readFile(o.certFile), readFile(o.keyFile)]);
  }
  const agent = new Agent({ keepAlive: true, maxSockets: o.maxSockets ?? 64, ...(cert && key ? { cert, key } : {}), ...(o.ca ? { ca: o.ca } : {}) });
  const timeoutMs = o.timeoutMs ?? 15_000;

  const sendTo = (url: URL, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<KmsResponse> =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
      const req = request(
        {
          agent,
          host: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port || 7373,
          method,
          path,
          servername: /^[\d.:[\]]+$/.test(url.hostname) ? undefined : url.hostname,
          headers: {
            ...(data ? { "content-type": "application/json", "content-length": String(data.length) } : {}),
            ...(o.enclave ? { "kms-enclave": o.enclave } : {}),
            ...headers,
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", (e) => reject(mapTlsError(e)));
        },
      );
      req.on("timeout", () => req.destroy(new Error("request timed out")));
      req.on("error", (e) => reject(mapTlsError(e)));
      req.end(data);
    });

  const send: KmsClient["send"] = (method, path, body, headers) => sendTo(urls[0] ?? new URL("https://127.0.0.1:7373"), method, path, body, headers);

  /**
   * kms-go behaviour: retry 503 and network errors, fail over to the next
   * node on any 5xx but 501; the last answer or error is what the caller sees,
   * with one exception below. A write carries one request id through all its
   * attempts, so a retry after an unknown outcome (504, a lost connection) is
   * answered with the first attempt's outcome instead of being applied twice.
   */
  async function sendWithFailover(method: string, path: string, body?: unknown): Promise<KmsResponse> {
    const write = method !== "GET" && method !== "HEAD";
    const headers = write ? { "kms-request-id": randomUUID() } : undefined;
    let last: unknown;
    // Whether an earlier attempt of this write may have been applied.
    let unknown = false;
    const attempts = urls.length + 2;
    for (let i = 0; i < attempts; i++) {
      const url = urls[i % urls.length] ?? urls[0];
      if (!url) break;
      try {
        const res = await sendTo(url, method, path, body, headers);
        if (res.status < 500 || res.status === 501 || i === attempts - 1) return honest(res, write && unknown);
        last = res;
        unknown ||= !certainlyNotApplied(res);
      } catch (err) {
        if (err instanceof Error && err.message === "tls: certificate signed by unknown authority") throw err;
        last = err;
        unknown = true;
      }
      if (i >= urls.length - 1) await new Promise((r) => setTimeout(r, 50 * (i + 1)));
    }
    if (last instanceof Error) throw last;
    return honest(last as KmsResponse, write && unknown);
  }

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await sendWithFailover(method, path, body);
    const text = res.body.toString("utf8");
    if (res.status < 200 || res.status > 299) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // Not JSON: keep the text.
      }
      throw new KmsClientError(res.status, message);
    }
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }
  const b64 = (b: Uint8Array | undefined) => (b ? { context: Buffer.from(b).toString("base64") } : {});
  const seg = encodeURIComponent;

  return {
    identity,
    send,
    call,
    createKey: (name) => call("POST", `/v1/key/create/${seg(name)}`, {}),
    generate: (name, context) => call("POST", `/v1/key/generate/${seg(name)}`, b64(context)),
    decrypt: (name, ciphertext, context) => call("POST", `/v1/key/decrypt/${seg(name)}`, { ciphertext, ...b64(context) }),
    close: () => agent.destroy(),
  };
}
