// A TLS proxy in front of a real KMS for the request-id tests: it records
// every request's `kms-request-id` and can lose the answer to a path's first
// request AFTER the KMS applied it (the connection is cut), which is exactly
// the ambiguous outcome a client must retry with the same id.
import { createServer, request, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { clientCertificateOf, createDevCa, parseApiKey } from "@mc/kms";

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly id: string | undefined;
  /** What the KMS answered (the client may not have seen it). */
  readonly status: number;
}

export interface RecordingProxy {
  readonly port: number;
  /** PEM of the CA that issued the proxy's certificate (127.0.0.1). */
  readonly ca: string;
  readonly seen: SeenRequest[];
  /** Paths whose next request is forwarded, answered by the KMS, then cut before the client gets the answer. */
  readonly cutAfterApply: Set<string>;
  close(): Promise<void>;
}

/** Forwards to the KMS at 127.0.0.1:`port`, as the identity of `apiKey` (the same API key as the client's, so the same caller). */
export async function startRecordingProxy(upstream: { port: number; ca: Buffer | string; apiKey: string }): Promise<RecordingProxy> {
  const authority = await createDevCa(`request-id proxy CA ${Math.random().toString(16).slice(2)}`);
  const pair = await authority.issueServer(["127.0.0.1"]);
  const identity = await clientCertificateOf(parseApiKey(upstream.apiKey) ?? new Uint8Array(32));
  const seen: SeenRequest[] = [];
  const cutAfterApply = new Set<string>();
  const server: Server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const id = req.headers["kms-request-id"];
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const out = request(
        { host: "127.0.0.1", port: upstream.port, method: req.method, path, headers, ca: upstream.ca, cert: identity.cert, key: identity.key, agent: false },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            seen.push({ method: req.method ?? "", path, id: typeof id === "string" ? id : undefined, status: answer.statusCode ?? 0 });
            if (cutAfterApply.delete(path)) {
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, { "content-type": answer.headers["content-type"] ?? "application/json" });
            res.end(Buffer.concat(body));
          });
        },
      );
      out.on("error", () => req.socket.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ca: authority.cert,
    seen,
    cutAfterApply,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
