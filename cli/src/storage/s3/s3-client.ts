import { readdirSync, readFileSync } from "node:fs";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { Client } from "minio";
import type { ResolvedAlias } from "../../config/aliases.js";
import { mcError } from "../../core/errors.js";
import type { Lookup } from "./resolve.js";

export interface ClientSettings {
  readonly certsDir: string;
  readonly insecure: boolean;
  readonly region?: string;
  /** --resolve overrides. */
  readonly lookup?: Lookup;
  /** --custom-header `k:v` entries, sent (and signed) with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The SDK's client plus our custom headers, added where it builds each request so they are signed too. */
class McClient extends Client {
  constructor(
    options: ConstructorParameters<typeof Client>[0],
    private readonly extraHeaders: Readonly<Record<string, string>>,
  ) {
    super(options);
  }

  protected override getRequestOptions(opts: Parameters<Client["getRequestOptions"]>[0]): ReturnType<Client["getRequestOptions"]> {
    const request = super.getRequestOptions(opts);
    Object.assign(request.headers, this.extraHeaders);
    return request;
  }
}

/** `-H 'k:v'` values as a header map. */
export function parseHeaders(entries: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(":");
    if (at <= 0) throw mcError(`Invalid --custom-header \`${entry}\`; use 'key:value'.`, undefined, "invalid_argument");
    out[entry.slice(0, at).trim().toLowerCase()] = entry.slice(at + 1).trim();
  }
  return out;
}

/** System roots plus every PEM file in certs/CAs/ (cmd/certs.go). */
export function trustedCas(certsDir: string): string[] {
  const cas = [...rootCertificates];
  const dir = join(certsDir, "CAs");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return cas;
  }
  for (const name of names) {
    try {
      cas.push(readFileSync(join(dir, name), "utf8"));
    } catch {
      // An unreadable file is skipped, like upstream.
    }
  }
  return cas;
}

export function createS3Client(alias: ResolvedAlias, settings: ClientSettings): Client {
  let url: URL;
  try {
    url = new URL(alias.url);
  } catch (err) {
    throw mcError(`Invalid URL \`${alias.url}\` of alias \`${alias.name}\`.`, err, "invalid_argument");
  }
  const useSSL = url.protocol === "https:";
  const port = url.port ? Number(url.port) : useSSL ? 443 : 80;
  // `on` = path style, `off` = virtual host; `auto`/`dns` = virtual host only for known clouds.
  const knownCloud = /amazonaws\.com$|googleapis\.com$/.test(url.hostname);
  const pathStyle = alias.path === "on" || (alias.path !== "off" && !knownCloud);
  const lookup = settings.lookup ? { lookup: settings.lookup } : {};
  const transportAgent = useSSL
    ? new HttpsAgent({ keepAlive: true, maxSockets: 64, ca: trustedCas(settings.certsDir), rejectUnauthorized: !settings.insecure, ...lookup })
    : new HttpAgent({ keepAlive: true, maxSockets: 64, ...lookup });
  const client = new McClient({
    endPoint: url.hostname,
    port,
    useSSL,
    accessKey: alias.accessKey,
    secretKey: alias.secretKey,
    ...(alias.sessionToken ? { sessionToken: alias.sessionToken } : {}),
    region: settings.region ?? process.env["MC_REGION"] ?? "us-east-1",
    pathStyle,
    transportAgent,
    // Our transfer engine retries on its own (with buffered bodies); the SDK's retry logs to the console.
    retryOptions: { disableRetry: true },
  }, settings.headers ?? {});
  // Over plain HTTP each body's SHA-256 is signed and the server checks it, so upload parts
  // need no Content-MD5 (SHA-256 costs half of MD5 here, with the CPU's SHA extensions).
  // Over HTTPS (and unsigned, anonymous requests) the payload is not signed, as the SDK does,
  // and Content-MD5 is the check.
  client.enableSHA256 = !useSSL && alias.accessKey !== "" && alias.secretKey !== "";
  return client;
}
