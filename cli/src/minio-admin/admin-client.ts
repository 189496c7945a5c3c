import { request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest, Agent as HttpsAgent } from "node:https";
import { join } from "node:path";
import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { createLookup, parseResolve } from "../storage/s3/resolve.js";
import { parseHeaders, trustedCas } from "../storage/s3/s3-client.js";
import { adminHttpError } from "./admin-errors.js";
import { encodeQuery, signedAdminHeaders } from "./admin-sign.js";

/** MinIO's admin API root (madmin `libraryAdminURLPrefix` + `adminAPIPrefix`). */
export const adminPrefix = "/minio/admin/v3";

export interface AdminRequest {
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "HEAD";
  /** Below `/minio/admin/v3` (e.g. `/get-bucket-quota`), or absolute with `absolute`. */
  readonly path: string;
  readonly absolute?: boolean;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Uint8Array;
  /** Extra headers, signed (madmin sends Content-Type: application/octet-stream with encrypted bodies). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Plain JSON to send encrypted with the secret key (madmin EncryptData). */
  readonly encrypt?: boolean;
  /** Statuses that are answers, not errors (default 200). */
  readonly expect?: readonly number[];
  /** Anonymous (the health endpoints): no Authorization. */
  readonly anonymous?: boolean;
  /** Another node of the deployment (`scheme://host:port`, `ping --distributed`) instead of the alias's URL. */
  readonly origin?: string;
  /**
   * A streamed 200 answer (the metrics API): each chunk as it arrives instead
   * of the whole body; calling `stop` closes the connection and ends the request.
   */
  readonly onChunk?: (chunk: Buffer, stop: () => void) => void;
  /** Ends this request early (a time limit of its own); the command's Ctrl-C signal applies anyway. */
  readonly signal?: AbortSignal;
  /**
   * A body sent after the signed head, chunked, `chunk` again and again until
   * the answer comes or `signal` ends the request (madmin v3 ClientPerf: the
   * signature covers the empty payload); `sent` is told each chunk written.
   */
  readonly endless?: { readonly chunk: Uint8Array; readonly sent: (bytes: number) => void };
}

export interface AdminResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface AdminClient {
  readonly alias: ResolvedAlias;
  request(req: AdminRequest): Promise<AdminResponse>;
  /** A request whose 200 answer is JSON (decrypted first when `decrypt`). */
  json<T>(req: AdminRequest & { readonly decrypt?: boolean }): Promise<T>;
  /** Decrypts a body the server encrypted with our secret key. */
  decrypt(body: Uint8Array): Promise<Uint8Array>;
}

type CryptoLib = typeof import("./payload-crypto-lib.js");
let crypto: Promise<CryptoLib> | undefined;

/** The payload crypto, loaded (with libsodium's WebAssembly) on first use only. */
export function payloadCrypto(): Promise<CryptoLib> {
  crypto ??= import("./payload-crypto-lib.js").then(async (lib) => {
    await lib.initCrypto();
    return lib;
  });
  return crypto;
}

/** The admin client of an alias: the alias's URL, keys, trust (certs/CAs, --insecure), --resolve and -H. */
export function createAdminClient(ctx: McContext, alias: ResolvedAlias): AdminClient {
  let url: URL;
  try {
    url = new URL(alias.url);
  } catch (err) {
    throw mcError(`Invalid URL \`${alias.url}\` of alias \`${alias.name}\`.`, err, "invalid_argument");
  }
  const lookup = createLookup(parseResolve(ctx.settings.resolve));
  const extra = parseHeaders(ctx.settings.headers);
  const agents = new Map<string, HttpAgent>();
  // One agent per scheme: `ping --distributed` may reach nodes by another scheme than the alias's.
  const agentFor = (protocol: string): HttpAgent => {
    let agent = agents.get(protocol);
    if (agent === undefined) {
      agent =
        protocol === "https:"
          ? new HttpsAgent({ keepAlive: false, ca: trustedCas(join(ctx.config.dir, "certs")), rejectUnauthorized: !ctx.settings.insecure, ...(lookup ? { lookup } : {}) })
          : new HttpAgent({ keepAlive: false, ...(lookup ? { lookup } : {}) });
      agents.set(protocol, agent);
    }
    return agent;
  };
  const region = process.env["MC_REGION"] || "us-east-1";

  const request = async (req: AdminRequest): Promise<AdminResponse> => {
    const to = req.origin === undefined ? url : new URL(req.origin);
    let body = req.body ?? new Uint8Array(0);
    if (req.encrypt) body = (await payloadCrypto()).encryptData(alias.secretKey, body);
    const query = encodeQuery(req.query);
    const path = req.absolute ? req.path : adminPrefix + req.path;
    const pathAndQuery = `${path}${query ? `?${query}` : ""}`;
    const all = { ...extra, ...req.headers };
    const headers: Record<string, string> = req.anonymous
      ? { ...all, host: to.host }
      : signedAdminHeaders({ method: req.method, path, query, host: to.host, body, accessKey: alias.accessKey, secretKey: alias.secretKey, ...(alias.sessionToken ? { sessionToken: alias.sessionToken } : {}), region, extra: all });
    if (body.length > 0) headers["content-length"] = String(body.length);
    const res = await new Promise<AdminResponse>((resolve, reject) => {
      const tls = to.protocol === "https:";
      const send = tls ? httpsRequest : httpRequest;
      const r = send({ protocol: to.protocol, hostname: to.hostname.replace(/^\[|\]$/g, ""), port: to.port || (tls ? 443 : 80), method: req.method, path: pathAndQuery, headers, agent: agentFor(to.protocol), signal: req.signal ? AbortSignal.any([ctx.signal, req.signal]) : ctx.signal }, (incoming) => {
        const chunks: Buffer[] = [];
        const stream = req.onChunk !== undefined && incoming.statusCode === 200 ? req.onChunk : undefined;
        const stop = (): void => {
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.alloc(0) });
          incoming.destroy();
        };
        incoming.on("data", (c: Buffer) => (stream ? stream(c, stop) : chunks.push(c)));
        incoming.once("error", reject);
        incoming.once("end", () => {
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) });
          // An endless upload answered early: nothing more to send.
          if (req.endless) r.destroy();
        });
      });
      // An endless upload cut short may fail more than once (a write, then the abort): every error is this request's end.
      if (req.endless) r.on("error", reject);
      else r.once("error", reject);
      const endless = req.endless;
      if (endless === undefined) {
        r.end(body.length > 0 ? body : undefined);
        return;
      }
      // Written as fast as the peer reads (each drain), until the answer or the signal ends the request.
      const pump = (): void => {
        let more = true;
        while (more && !r.destroyed) {
          more = r.write(endless.chunk);
          endless.sent(endless.chunk.length);
        }
        if (!r.destroyed) r.once("drain", pump);
      };
      pump();
    });
    if (!(req.expect ?? [200]).includes(res.status)) throw adminHttpError(res);
    return res;
  };

  const decrypt = async (data: Uint8Array): Promise<Uint8Array> => (await payloadCrypto()).decryptData(alias.secretKey, data);

  return {
    alias,
    request,
    decrypt,
    async json<T>(req: AdminRequest & { readonly decrypt?: boolean }): Promise<T> {
      const res = await request(req);
      const raw = req.decrypt ? await decrypt(res.body) : res.body;
      try {
        return JSON.parse(Buffer.from(raw).toString("utf8")) as T;
      } catch (err) {
        throw adminHttpError(res, err);
      }
    },
  };
}
