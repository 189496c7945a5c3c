import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFile } from "node:fs/promises";
import { signV4 } from "../../cli/src/minio-admin/admin-sign.js";
import type { CertFiles } from "../harness/tls-certs.js";

/** One request as the recorder saw it. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  /** The raw query string (without `?`). */
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The names in the Authorization header's SignedHeaders (empty when unsigned). */
  readonly signedHeaders: readonly string[];
  /** The SigV4 signature recomputed from what arrived, under the test's keys, equals the one sent. */
  readonly signatureValid: boolean;
}

export interface Answer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** A streamed answer instead of `body`: each chunk written as it comes (no Content-Length), then the end. */
  readonly chunks?: AsyncIterable<string | Uint8Array>;
  /** Send the body and keep the answer open (a stream the client must end: Ctrl-C, a closed pipe). */
  readonly hold?: boolean;
  /** With `hold`: this chunk again every `everyMs` until the client goes away. */
  readonly drip?: { readonly chunk: string | Uint8Array; readonly everyMs: number };
}

export type Responder = (req: Recorded) => Answer | Promise<Answer>;

export interface Recorder {
  /** `127.0.0.1:PORT` */
  readonly host: string;
  readonly url: string;
  readonly requests: Recorded[];
  /** Answers from now on (default: 200, empty body). */
  respond(responder: Responder): void;
  /**
   * Requests whose body never ends by itself (madmin's ClientPerf uploads
   * for as long as its timer runs): those the predicate picks are recorded
   * and answered as soon as their head arrives, their body read and dropped
   * (recorded empty, its size in `drained`).
   */
  early(pick: ((method: string, path: string) => boolean) | undefined): void;
  /** Bytes of early-answered bodies read so far. */
  readonly drained: () => number;
  clear(): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP(S) endpoint that records every request and answers from
 * the current responder. It checks each SigV4 signature with the keys given,
 * so a request the reference library signed and one our mc signed are both
 * verified the way a server would.
 */
export async function startRecorder(keys: { access: string; secret: string }, tls?: CertFiles): Promise<Recorder> {
  const requests: Recorded[] = [];
  let responder: Responder = () => ({});
  let earlyPick: ((method: string, path: string) => boolean) | undefined;
  let drained = 0;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    const early = earlyPick?.(req.method ?? "", (req.url ?? "/").split("?")[0] ?? "") === true;
    if (early) req.on("data", (c: Buffer) => (drained += c.length));
    else req.on("data", (c: Buffer) => chunks.push(c));
    const whenHead = (fn: () => void): void => {
      if (early) fn();
      else req.on("end", fn);
    };
    whenHead(() => {
      void (async () => {
        const target = req.url ?? "/";
        const q = target.indexOf("?");
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(",") : (v ?? "");
        const auth = headers["authorization"] ?? "";
        const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
        const body = Buffer.concat(chunks);
        const path = q < 0 ? target : target.slice(0, q);
        const query = q < 0 ? "" : target.slice(q + 1);
        let signatureValid = false;
        if (auth.startsWith("AWS4-HMAC-SHA256")) {
          const date = headers["x-amz-date"] ?? "";
          const region = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(auth)?.[1] ?? "";
          const again = signV4({
            method: req.method ?? "",
            path,
            query,
            headers: Object.fromEntries(signedHeaders.map((h) => [h, headers[h] ?? ""])),
            body,
            accessKey: keys.access,
            secretKey: keys.secret,
            region,
            date: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`),
            payloadHash: headers["x-amz-content-sha256"] ?? "",
            valueOrder: "as-sent", // as MinIO verifies (Go url.Values.Encode)
          });
          signatureValid = again.authorization === auth;
        }
        const rec: Recorded = { method: req.method ?? "", path, query, headers, body, signedHeaders, signatureValid };
        requests.push(rec);
        const answer = await responder(rec);
        if (answer.chunks !== undefined) {
          res.writeHead(answer.status ?? 200, { ...answer.headers });
          for await (const c of answer.chunks) {
            if (res.destroyed) break;
            res.write(c);
          }
          res.end();
          return;
        }
        if (answer.hold) {
          res.writeHead(answer.status ?? 200, { ...answer.headers });
          res.write(answer.body ?? "");
          const drip = answer.drip;
          if (drip) {
            const timer = setInterval(() => res.write(drip.chunk), drip.everyMs);
            res.once("close", () => clearInterval(timer));
          }
          return;
        }
        res.writeHead(answer.status ?? 200, { "content-length": String(Buffer.byteLength(answer.body ?? "")), ...answer.headers });
        res.end(answer.body ?? "");
      })();
    });
  };
  let server: Server;
  if (tls) {
    server = createHttpsServer({ cert: await readFile(tls.certFile), key: await readFile(tls.keyFile) }, handle);
  } else {
    server = createHttpServer(handle);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const host = `127.0.0.1:${port}`;
  return {
    host,
    url: `${tls ? "https" : "http"}://${host}`,
    requests,
    respond(r) {
      responder = r;
    },
    early(pick) {
      earlyPick = pick;
    },
    drained: () => drained,
    clear() {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
