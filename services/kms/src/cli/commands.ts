import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAddress } from "../config/config.js";
import { loadConfig } from "../config/load-config.js";
import { StartupError } from "../config/startup-error.js";
import { ensureDevCertificates } from "../dev-setup.js";
import { newHsmKey } from "../adapters/hsm/software-hsm.js";
import { startKmsNode } from "../kms-node.js";
import { identityOfSeed, newApiKey, parseApiKey } from "../adapters/tls/api-key.js";
import { identityOfCertificate } from "../adapters/tls/identity-of-cert.js";

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
  const node = await startKmsNode({ config: await loadConfig(configPath) });
  process.stderr.write(`kms: listening on https://${node.host}:${node.port}\n`);
  return waitForSignal(() => node.close());
}

export async function runCli(argv: readonly string[]): Promise<number> {
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
      if (command === undefined || command === "-h" || command === "--help" || command === "help") {
        process.stdout.write(usage);
        return command === undefined ? 1 : 0;
      }
      process.stderr.write(`kms: unknown command '${argv.join(" ")}'\n\n${usage}`);
      return 1;
  }
}
