// `GET /v1/log/audit` is an endless NDJSON stream; the client library's
// `call` buffers whole answers (and retries), so the stream has its own
// request here, with the alias's client certificate (its API key's or its own).
import { request } from "node:https";
import { createInterface } from "node:readline";
import { certificateOf, type KmsCredential, type KmsLibModule } from "./kms-alias.js";

export interface AuditFollow {
  readonly lib: KmsLibModule;
  readonly server: string;
  readonly credential: KmsCredential;
  readonly ca: string;
  readonly enclave: string | undefined;
  readonly signal: AbortSignal;
}

/** Calls `onLine` for each audit record until the server ends the stream (resolves) or `signal` aborts (resolves). */
export async function followAudit(o: AuditFollow, onLine: (line: string) => void): Promise<void> {
  const { cert, key } = await certificateOf(o.lib, o.credential);
  const url = new URL(o.server.includes("://") ? o.server : `https://${o.server}`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise<void>((resolve, reject) => {
    if (o.signal.aborted) return resolve();
    const req = request(
      {
        host,
        port: url.port || 7373,
        path: "/v1/log/audit",
        method: "GET",
        cert,
        key,
        ...(o.ca === "" ? {} : { ca: o.ca }),
        servername: /^[\d.:]+$/.test(host) ? undefined : host,
        headers: o.enclave ? { "kms-enclave": o.enclave } : {},
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let message = text;
            try {
              message = (JSON.parse(text) as { message?: string }).message ?? text;
            } catch {
              // Not JSON: keep the text.
            }
            reject(new o.lib.KmsClientError(status, message));
          });
          return;
        }
        const lines = createInterface({ input: res, crlfDelay: Infinity });
        lines.on("line", (line) => {
          if (line.trim() !== "") onLine(line);
        });
        const failed = (err: Error): void => (o.signal.aborted ? resolve() : reject(err));
        lines.on("close", () => resolve());
        // Both report a cut connection; after Ctrl-C that is the expected end.
        lines.on("error", failed);
        res.on("error", failed);
      },
    );
    const onAbort = (): void => {
      req.destroy();
      resolve();
    };
    o.signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err) => (o.signal.aborted ? resolve() : reject(err)));
    req.end();
  });
}
