import { resolve } from "node:path";
import { AppError } from "@mc/shared/errors";
import { Command, Option, parseCommandLine, ProgramCommand, type Program } from "@mc/shared/program";

export interface GatewayConfig {
  readonly host: string;
  readonly port: number;
  /** Distributed mode when set; otherwise the embedded in-process bus. */
  readonly natsUrl: string | undefined;
  readonly dataDir: string;
  /** The release store: a folder or s3://bucket[/prefix]; the embedded default keeps a folder in the data folder. */
  readonly storeSpec: string;
  /** Where the embedded single-node KMS listens; undefined: no KMS (or distributed mode). */
  readonly kms: { readonly host: string; readonly port: number } | undefined;
  /** Public base URL, no trailing slash. */
  readonly baseUrl: string;
  readonly help: boolean;
}

export const usage = `Usage: gateway [options]

Serves the documented HTTP paths of the release service and the Connect
endpoints. Without --nats it runs the embedded default: every service in this
one process, joined by the in-process bus.

Options:
  --listen HOST:PORT   where to listen (env GATEWAY_LISTEN; default 127.0.0.1:8080)
  --nats URL[,URL]     connect to NATS instead of the in-process bus (env NATS_URL)
  --data-dir DIR       state folder of the embedded mode (env DATA_DIR; default .data)
  --store DIR|s3://B   the release store: a folder, or s3://bucket[/prefix] with
                       RELEASES_S3_ENDPOINT/_ACCESS_KEY/_SECRET_KEY/_REGION
                       (env RELEASES_STORE; embedded: DATA_DIR/releases)
  --base-url URL       public base URL of every link (env BASE_URL; default http://HOST:PORT)
  --kms-listen HOST:PORT|off
                       the embedded single-node KMS (TLS only; env KMS_LISTEN;
                       default 127.0.0.1:7373; off: none)
  -h, --help           show this help

Endpoints:
  GET /                                 landing page: every product, its pages, feeds, key
  GET /<product>/releases               the release-notes page of a product
  GET /<product>/<component>/release/   browsable indexes (HTML, or JSON on request)
  GET /healthz                          gateway and bus health (JSON)
  GET /metrics                          Prometheus metrics (requests, latencies)
  GET /api/releases/<product>[/latest]  release records (JSON)
  GET /api/feeds/<product>.json         JSON Feed;  GET /feed-<product>.rss  RSS
  GET /<product>/<component>/release/…  binaries, checksums, signatures, notes
  GET /minisign.pub                     the release signing public key

Limits (the releases contract sets none):
  request body        64 KiB on every path, Connect included; counted while it
                      arrives, before any route runs: 413, connection closed
  request arrival     15 s for headers and body: 408, connection closed
`;

function parseListen(value: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AppError("invalid_argument", `--listen must be HOST:PORT, got '${value}'`);
  }
  return { host: match[1].replace(/^\[(.*)\]$/, "$1"), port };
}

/** The gateway's flags: one command, no command word (the project's one argument parser reads them). */
class GatewayCommand extends ProgramCommand {
  static override paths = [Command.Default];

  listen = Option.String("--listen");
  nats = Option.String("--nats");
  dataDir = Option.String("--data-dir");
  store = Option.String("--store");
  baseUrl = Option.String("--base-url");
  kmsListen = Option.String("--kms-listen");

  // main.ts starts the gateway from the GatewayConfig; this command only reads the flags.
  async run(): Promise<void> {}
}

export const gatewayProgram: Program = { name: "gateway", usage, commands: [GatewayCommand] };

interface GatewayFlags {
  readonly listen?: string | undefined;
  readonly nats?: string | undefined;
  readonly "data-dir"?: string | undefined;
  readonly store?: string | undefined;
  readonly "base-url"?: string | undefined;
  readonly "kms-listen"?: string | undefined;
  readonly help?: boolean;
}

function flagsOf(argv: readonly string[]): GatewayFlags {
  let parsed;
  try {
    parsed = parseCommandLine(gatewayProgram, argv);
  } catch (err) {
    throw new AppError("invalid_argument", err instanceof Error ? err.message : "bad arguments");
  }
  if (parsed.kind !== "command" || !(parsed.command instanceof GatewayCommand)) return { help: true };
  const c = parsed.command;
  return { listen: c.listen, nats: c.nats, "data-dir": c.dataDir, store: c.store, "base-url": c.baseUrl, "kms-listen": c.kmsListen };
}

export function parseGatewayConfig(argv: readonly string[], env: NodeJS.ProcessEnv): GatewayConfig {
  const values = flagsOf(argv);
  const { host, port } = parseListen(values.listen ?? env.GATEWAY_LISTEN ?? "127.0.0.1:8080");
  const nats = values.nats ?? env.NATS_URL;
  const natsUrl = nats === undefined || nats === "" ? undefined : nats;
  const dataDir = resolve(values["data-dir"] ?? (env.DATA_DIR || ".data"));
  // An empty variable is unset: RELEASES_STORE="" must not make the working directory the store.
  const store = values.store ?? (env.RELEASES_STORE || undefined);
  if (natsUrl && !store) throw new AppError("invalid_argument", "--store is required with --nats: every gateway reads artifacts from the shared store");
  const baseUrl = (values["base-url"] ?? env.BASE_URL ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(baseUrl)) throw new AppError("invalid_argument", `--base-url must be an http(s) URL, got '${baseUrl}'`);
  const kmsListen = values["kms-listen"] ?? env.KMS_LISTEN ?? "127.0.0.1:7373";
  const kms = natsUrl || kmsListen === "off" ? undefined : parseListen(kmsListen);
  return {
    host,
    port,
    natsUrl,
    kms,
    dataDir,
    storeSpec: store !== undefined && store.startsWith("s3://") ? store : resolve(store ?? resolve(dataDir, "releases")),
    baseUrl,
    help: values.help ?? false,
  };
}
