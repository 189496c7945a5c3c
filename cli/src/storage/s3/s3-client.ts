import { readdirSync, readFileSync } from "node:fs";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import type { Client, ClientOptions } from "minio";
import type { ResolvedAlias } from "../../config/aliases.js";
import { mcError } from "../../core/errors.js";
import type { Lookup } from "./resolve.js";
import { directCapable, sendDirect, type DirectTarget } from "./s3-direct.js";
import { createSdkClient, sdkOutcome } from "./s3-sdk-client.js";

export interface ClientSettings {
  readonly certsDir: string;
  readonly insecure: boolean;
  readonly region?: string;
  /** --resolve overrides. */
  readonly lookup?: Lookup;
  /** --custom-header `k:v` entries, sent (and signed) with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A connection neither sending nor receiving this long fails (default 10 minutes, as upstream's deadlines). */
  readonly idleMs?: number;
  /**
   * Aborted on Ctrl-C: every connection open then is cut, so requests the S3
   * SDK cannot abort end at once; clean-up requests open new ones.
   */
  readonly signal?: AbortSignal;
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

const idleError = (host: string, idleMs: number): Error =>
  Object.assign(new Error(`No data to or from ${host} for ${idleMs / 1000} s (--conn-read-deadline, --conn-write-deadline)`), { code: "ETIMEDOUT" });

/** How range-connection.ts reaches a client's server: plain HTTP to a host s3-direct.ts can sign for. */
export interface RangeTarget {
  readonly target: DirectTarget;
  readonly lookup?: Lookup;
  readonly idleMs: number;
  idleError(): Error;
}

const rangeTargets = new WeakMap<Client, RangeTarget>();

/** Undefined for HTTPS, virtual-host style and hosts the SDK alone may reach. */
export function rangeTargetOf(client: Client): RangeTarget | undefined {
  return rangeTargets.get(client);
}

/**
 * The agent's sockets carry its idle timeout (kept on reuse), but Node only
 * reports it: a request to a server that never answers waited forever. Here a
 * socket idle that long is destroyed, failing its request with ETIMEDOUT
 * (retried like any dropped connection, then reported in one line).
 */
function withDeadline<T extends HttpAgent>(agent: T, host: string, idleMs: number): T {
  const create = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
  agent.createConnection = ((...args: unknown[]) => {
    const socket = create(...args);
    socket.once("timeout", () => socket.destroy(idleError(host, idleMs)));
    return socket;
  }) as T["createConnection"];
  return agent;
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
  const idleMs = settings.idleMs ?? 10 * 60_000;
  const transportAgent = withDeadline(
    useSSL
      ? new HttpsAgent({ keepAlive: true, maxSockets: 64, timeout: idleMs, ca: trustedCas(settings.certsDir), rejectUnauthorized: !settings.insecure, ...lookup })
      : new HttpAgent({ keepAlive: true, maxSockets: 64, timeout: idleMs, ...lookup }),
    `${url.hostname}:${port}`,
    idleMs,
  );
  settings.signal?.addEventListener("abort", () => transportAgent.destroy(), { once: true });
  const region = settings.region ?? process.env["MC_REGION"] ?? "us-east-1";
  const options: ClientOptions = {
    endPoint: url.hostname,
    port,
    useSSL,
    accessKey: alias.accessKey,
    secretKey: alias.secretKey,
    ...(alias.sessionToken ? { sessionToken: alias.sessionToken } : {}),
    region,
    pathStyle,
    transportAgent,
    // Our transfer engine retries on its own (with buffered bodies); the SDK's retry logs to the console.
    retryOptions: { disableRetry: true },
  };
  const headers = settings.headers ?? {};
  // Over plain HTTP each body's SHA-256 is signed and the server checks it, so upload parts
  // need no Content-MD5 (SHA-256 costs half of MD5 here, with the CPU's SHA extensions).
  // Over HTTPS (and unsigned, anonymous requests) the payload is not signed, as the SDK does,
  // and Content-MD5 is the check.
  const enableSHA256 = !useSSL && alias.accessKey !== "" && alias.secretKey !== "";
  const target: DirectTarget = { useSSL, host: url.hostname, port, pathStyle, accessKey: alias.accessKey, secretKey: alias.secretKey, ...(alias.sessionToken ? { sessionToken: alias.sessionToken } : {}), region, agent: transportAgent, headers, enableSHA256 };
  // A host the SDK might refuse is handed to it now, so its error comes where it always did.
  if (!directCapable(target)) return createSdkClient(options, headers, enableSHA256);
  const client = lazyClient(target, options, headers);
  if (!useSSL) rangeTargets.set(client, { target, ...lookup, idleMs, idleError: () => idleError(`${url.hostname}:${port}`, idleMs) });
  return client;
}

/**
 * The client for a host s3-direct.ts can reach: bucket GETs and HEADs
 * (`mc ls ALIAS/BUCKET`) go out without the SDK, and the SDK's client is made
 * on the first use of anything else. A proxy, so callers keep the SDK's type.
 */
function lazyClient(target: DirectTarget, options: ClientOptions, headers: Readonly<Record<string, string>>): Client {
  let sdk: Client | undefined;
  const real = (): Client => (sdk ??= createSdkClient(options, headers, target.enableSHA256));
  const send = target.useSSL ? httpsRequest : httpRequest;
  const makeRequestAsync: Client["makeRequestAsync"] = (...args) => {
    const [call, payload, expected = [200], region = ""] = args;
    const direct = sendDirect(target, call, payload, expected, region, send, (res) => sdkOutcome(options, headers, target.enableSHA256, res, args));
    return direct ?? real().makeRequestAsync(...args);
  };
  return new Proxy({} as Client, {
    get(_, prop) {
      if (prop === "makeRequestAsync") return makeRequestAsync;
      // The SDK's client is no thenable: a client passed through a promise must not make it.
      if (prop === "then") return undefined;
      const client = real();
      const value: unknown = Reflect.get(client, prop, client);
      return typeof value === "function" ? value.bind(client) : value;
    },
    set: (_, prop, value) => Reflect.set(real(), prop, value),
    has: (_, prop) => Reflect.has(real(), prop),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
