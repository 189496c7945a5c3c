import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@mc/shared/node";
import { parseAddress } from "../config/config.js";
import { loadConfig } from "../config/load-config.js";
import { StartupError } from "../config/startup-error.js";
import { ensureDevCertificates } from "../dev-setup.js";
import { newHsmKey } from "../adapters/hsm/software-hsm.js";
import { startKmsNode } from "../kms-node.js";
import { identityOfSeed, newApiKey, parseApiKey } from "../adapters/tls/api-key.js";
import { identityOfCertificate } from "../adapters/tls/identity-of-cert.js";
import { createKmsClient, KmsClientError } from "../client/kms-client.js";
import { clusterView, clusterViewLines } from "./cluster-view.js";
import { recoverCommand, recoverUsage } from "./recover.js";

export const usage = `Usage: kms <command>

Key management service: a TLS-only node on port 7373 with enclaves,
identities, policies and keys.

Commands:
  server --config FILE      run a KMS node from a YAML configuration
  server --dev [--address HOST:PORT]
                            run an ephemeral development node (prints its root API key)
  hsm new                   print a new software HSM key (hsm:aes256:...)
  apikey new                print a new API key and its identity
  identity of CERT.pem      print the identity of a certificate
  cluster add HOST:PORT     add a (fresh, running) node to the cluster
  cluster remove HOST:PORT  remove a node from the cluster
  cluster status            members, leader, term, indexes, lag, round trips,
                            as the leader sees them (asked of it from any node)
      cluster commands take --server HOST:PORT (default 127.0.0.1:7373),
      --api-key KEY (or KMS_API_KEY) and --ca FILE (or KMS_CA)
  recover --config FILE     check a stopped node's data directory (or --data DIR);
                            --truncate-at N cuts its log, --move-aside DIR empties it
                            (kms recover --help)
`;

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function waitForSignal(close: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const stop = () => {
      void close().then(() => resolve(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

export async function serverCommand(args: readonly string[]): Promise<number> {
  if (args.includes("--dev")) {
    const dir = await mkdtemp(join(tmpdir(), "kms-dev-"));
    const { host, port } = parseAddress(flag(args, "--address") ?? "127.0.0.1:7373");
    const files = await ensureDevCertificates(join(dir, "certs"));
    const node = await startKmsNode({
      config: {
        host, port, dataDir: join(dir, "data"), adminIdentity: undefined,
        tls: { cert: files.certFile, key: files.keyFile, ca: undefined, auth: "off" },
        hsm: { kind: "key", key: newHsmKey() }, enclaves: ["default"], audit: "stdout",
      },
    });
    process.stderr.write(`kms: development node on https://${host}:${node.port} (ephemeral; CA ${files.caFile})\n`);
    return waitForSignal(async () => {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    });
  }
  const configPath = flag(args, "--config");
  if (!configPath) throw new StartupError("kms: server needs --config FILE or --dev");
  const logger = createLogger("kms");
  // Operational lines keep their exact text as `msg`; trouble is logged as a warning.
  const log = (line: string): void => (/error|fail|cannot|not part of|warning/.test(line) ? logger.warn(line) : logger.info(line));
  const node = await startKmsNode({ config: await loadConfig(configPath), log });
  process.stderr.write(`kms: listening on https://${node.host}:${node.port}\n`);
  return waitForSignal(() => node.close());
}

/** --server is HOST:PORT or https://HOST[:PORT]; anything else is one clear line here, not a URL parser's stack later. */
function serverOf(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "https:" || url.hostname === "" || url.pathname !== "/" || url.search !== "") {
    throw new StartupError(`kms: --server must be HOST:PORT or https://HOST:PORT, got '${value}'`);
  }
  return value;
}

const withoutFlags = (args: readonly string[]): string[] =>
  args.filter((a, i) => !a.startsWith("--") && !(i > 0 && ["--server", "--api-key", "--ca"].includes(args[i - 1] ?? "")));

/** `kms cluster add|remove|status` against a running node (contract §8). */
export async function clusterCommand(sub: string, args: readonly string[], out: (line: string) => void): Promise<number> {
  if (!["add", "remove", "status"].includes(sub)) throw new StartupError(`kms: unknown cluster command '${sub}'`);
  const server = serverOf(flag(args, "--server") ?? "127.0.0.1:7373");
  const apiKey = flag(args, "--api-key") ?? process.env.KMS_API_KEY;
  if (!apiKey) throw new StartupError("kms: cluster commands need an API key (KMS_API_KEY or --api-key)");
  const caFile = flag(args, "--ca") ?? process.env.KMS_CA;
  const ca = caFile ? await readFile(caFile).catch(() => {
    throw new StartupError(`kms: cannot read CA file: ${caFile}`);
  }) : undefined;
  const host = withoutFlags(args)[0];
  if (sub !== "status" && !host) throw new StartupError(`kms: cluster ${sub} needs HOST:PORT`);
  const client = await createKmsClient({ server, apiKey, ...(ca ? { ca } : {}) });
  try {
    if (sub === "status") {
      // The leader's view, asked of the leader even when --server names a follower (clusterView says why when it cannot).
      const view = await clusterView(client, server, (leader) => createKmsClient({ server: leader, apiKey, ...(ca ? { ca } : {}) }));
      for (const line of clusterViewLines(view)) out(line);
      return 0;
    }
    const r = await client.call<{ nodes: string[] }>("POST", `/v1/cluster/${sub}`, { host });
    for (const n of r.nodes) out(n);
    return 0;
  } catch (err) {
    if (err instanceof KmsClientError) {
      process.stderr.write(`${err.message.startsWith("kms: ") ? err.message : `kms: ${err.message}`}\n`);
      return 1;
    }
    // Network and TLS failures (refused, timed out, untrusted or expired certificate): one line naming the server, no stack.
    if (err instanceof Error) {
      process.stderr.write(`kms: cannot reach ${server}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    client.close();
  }
}

/** The flags of each command (values own the next word); a command not listed here reads its own. */
const commandFlags: Readonly<Record<string, { readonly values: readonly string[]; readonly switches: readonly string[] }>> = {
  server: { values: ["--config", "--address"], switches: ["--dev"] },
  cluster: { values: ["--server", "--api-key", "--ca"], switches: [] },
  hsm: { values: [], switches: [] },
  apikey: { values: [], switches: [] },
  identity: { values: [], switches: [] },
};

/** A mistyped flag must stop the command with one line, not be ignored. */
function checkFlags(argv: readonly string[]): void {
  const known = commandFlags[argv[0] ?? ""];
  if (!known) return;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (!word.startsWith("-")) continue;
    const name = word.split("=")[0] ?? word;
    if (known.values.includes(name)) {
      if (!word.includes("=")) i++;
    } else if (!known.switches.includes(name)) {
      throw new StartupError(`kms: unknown flag '${name}' for '${argv[0]}' (see kms --help)`);
    }
  }
}

export async function runCli(argv: readonly string[]): Promise<number> {
  checkFlags(argv);
  const [command, sub, ...rest] = argv;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  switch (`${command ?? ""} ${sub ?? ""}`.trim()) {
    case "hsm new":
      out(newHsmKey());
      return 0;
    case "apikey new": {
      const key = newApiKey();
      const seed = parseApiKey(key) ?? new Uint8Array(0);
      out(`API Key  ${key}`);
      out(`Identity ${identityOfSeed(seed)}`);
      return 0;
    }
    case "identity of": {
      const file = rest[0];
      if (!file) throw new StartupError("kms: identity of needs a certificate file");
      const pem = await readFile(file).catch(() => {
        throw new StartupError(`kms: cannot read certificate: ${file}`);
      });
      out(identityOfCertificate(pem));
      return 0;
    }
    default:
      if (command === "server") return serverCommand(argv.slice(1));
      if (command === "cluster") return clusterCommand(sub ?? "", rest, out);
      if (command === "recover") {
        if (argv.includes("--help") || argv.includes("-h")) {
          process.stdout.write(recoverUsage);
          return 0;
        }
        return recoverCommand(argv.slice(1), out);
      }
      if (command === undefined || command === "-h" || command === "--help" || command === "help") {
        process.stdout.write(usage);
        return command === undefined ? 1 : 0;
      }
      process.stderr.write(`kms: unknown command '${argv.join(" ")}'\n\n${usage}`);
      return 1;
  }
}
