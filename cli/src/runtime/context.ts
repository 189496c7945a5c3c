import { join } from "node:path";
import type { Client } from "minio";
import type { ResolvedAlias } from "../config/aliases.js";
import type { LoadedConfig } from "../config/config-dir.js";
import type { Output } from "../core/output.js";
import { createLocalStore } from "../storage/local/local-store.js";
import { parseLocation, type Location } from "../storage/location.js";
import { createS3Client, parseHeaders } from "../storage/s3/s3-client.js";
import { createLookup, parseResolve } from "../storage/s3/resolve.js";
import { createS3Store } from "../storage/s3/s3-store.js";
import type { Store } from "../storage/types.js";
import { createRateLimiter } from "../transfer/rate-limit.js";
import type { TransferLimits } from "../transfer/copy.js";
import type { UploadSettings } from "../storage/s3/s3-upload.js";

export interface GlobalSettings {
  readonly configDir: string;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly debug: boolean;
  readonly insecure: boolean;
  readonly noColor: boolean;
  /** Bytes per second, whole run (--limit-upload / --limit-download). */
  readonly limitUpload?: number;
  readonly limitDownload?: number;
  /** --resolve HOST[:PORT]=IP entries. */
  readonly resolve: readonly string[];
  /** --custom-header `k:v` entries. */
  readonly headers: readonly string[];
  /** A connection neither sending nor receiving this long fails (--conn-read/write-deadline; default 10 min). */
  readonly connIdleMs?: number;
}

/** What a command works with: output, configuration, aliases and the two backends. */
export interface McContext {
  readonly settings: GlobalSettings;
  readonly output: Output;
  readonly config: LoadedConfig;
  readonly aliases: ReadonlyMap<string, ResolvedAlias>;
  /** Aborted on Ctrl-C: transfers clean up and stop. */
  readonly signal: AbortSignal;
  readonly upload: UploadSettings;
  readonly limits: TransferLimits;
  locate(arg: string): Location;
  client(alias: ResolvedAlias): Client;
  bucketStore(alias: ResolvedAlias, bucket: string, upload?: UploadSettings): Store;
  /** The same context with other multipart settings (put -P/-s, od parts=). */
  withUpload(upload: UploadSettings): McContext;
  /**
   * Parts of local listings that could not be read so far (each reported as
   * it was met): the command fails at the end, and mirror removes nothing.
   */
  unreadable(): number;
  /** Whether a local path is, or lies in, a part of a listing that could not be read: what is there is unknown. */
  passedOver(path: string): boolean;
}

export interface ContextDeps {
  readonly settings: GlobalSettings;
  readonly output: Output;
  readonly config: LoadedConfig;
  readonly aliases: ReadonlyMap<string, ResolvedAlias>;
  readonly signal: AbortSignal;
  readonly upload: UploadSettings;
}

export function createContext(deps: ContextDeps, shared?: TransferLimits, unreadable: string[] = []): McContext {
  const limits: TransferLimits = shared ?? {
    ...(deps.settings.limitUpload ? { upload: createRateLimiter(deps.settings.limitUpload) } : {}),
    ...(deps.settings.limitDownload ? { download: createRateLimiter(deps.settings.limitDownload) } : {}),
  };
  const clients = new Map<string, Client>();
  // No --resolve: no call into resolve.ts, a deferred module (cli/scripts/build.mjs) that loads node's dns and net.
  const lookup = deps.settings.resolve.length > 0 ? createLookup(parseResolve(deps.settings.resolve)) : undefined;
  // No -H: no call into s3-client, whose first call loads the S3 SDK (a deferred module, cli/scripts/build.mjs).
  const headers = deps.settings.headers.length > 0 ? parseHeaders(deps.settings.headers) : {};
  const localStore = createLocalStore({
    onUnreadable: (err, path) => {
      unreadable.push(path);
      deps.output.error(err);
    },
  });
  const client = (alias: ResolvedAlias): Client => {
    let c = clients.get(alias.name);
    if (!c) {
      const idle = deps.settings.connIdleMs === undefined ? {} : { idleMs: deps.settings.connIdleMs };
      c = createS3Client(alias, { certsDir: join(deps.config.dir, "certs"), insecure: deps.settings.insecure, headers, signal: deps.signal, ...(lookup ? { lookup } : {}), ...idle });
      clients.set(alias.name, c);
    }
    return c;
  };
  const bucketStore = (alias: ResolvedAlias, bucket: string, upload: UploadSettings = deps.upload): Store => createS3Store(client(alias), alias.name, bucket, upload);
  return {
    ...deps,
    limits,
    client,
    bucketStore,
    locate: (arg) => parseLocation(arg, { aliases: deps.aliases, localStore, client, bucketStore }),
    withUpload: (upload) => createContext({ ...deps, upload }, limits, unreadable),
    unreadable: () => unreadable.length,
    passedOver: (path) => unreadable.some((p) => path === p || (p.endsWith("/") ? path.startsWith(p) || path === p.slice(0, -1) : path.startsWith(`${p}/`))),
  };
}
