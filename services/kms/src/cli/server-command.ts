// `kms server`: a node from a configuration file, or an ephemeral
// development node; runs until SIGINT or SIGTERM.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@mc/shared/node";
import { Option, ProgramCommand } from "@mc/shared/program";
import { newHsmKey } from "../adapters/hsm/software-hsm.js";
import { parseAddress } from "../config/config.js";
import { loadConfig } from "../config/load-config.js";
import { StartupError } from "../config/startup-error.js";
import { ensureDevCertificates } from "../dev-setup.js";
import { startKmsNode } from "../kms-node.js";

function waitForSignal(close: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const stop = () => {
      void close().then(() => resolve(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

const serverUsage = `Usage: kms server (--config FILE | --dev [--address HOST:PORT])

Runs a KMS node until SIGINT or SIGTERM.
  --config FILE         the node's YAML configuration (src/config/kms.example.yaml)
  --dev                 an ephemeral development node: certificates, HSM key and data
                        in a temporary folder, removed on exit; prints its root API key
  --address HOST:PORT   where the development node listens (default 127.0.0.1:7373)
`;

export class ServerCommand extends ProgramCommand {
  static override paths = [["server"]];
  static override help = serverUsage;

  config = Option.String("--config");
  dev = Option.Boolean("--dev", false);
  address = Option.String("--address");

  async run(): Promise<number> {
    if (this.dev) return this.runDev();
    const configPath = this.config;
    if (!configPath) throw new StartupError("kms: server needs --config FILE or --dev");
    const logger = createLogger("kms");
    // Operational lines keep their exact text as `msg`; trouble is logged as a warning.
    const log = (line: string): void => (/error|fail|cannot|not part of|warning/.test(line) ? logger.warn(line) : logger.info(line));
    const node = await startKmsNode({ config: await loadConfig(configPath), log });
    process.stderr.write(`kms: listening on https://${node.host}:${node.port}\n`);
    return waitForSignal(() => node.close());
  }

  private async runDev(): Promise<number> {
    // The address first: a bad one must not leave a temporary folder behind.
    const { host, port } = parseAddress(this.address ?? "127.0.0.1:7373");
    const dir = await mkdtemp(join(tmpdir(), "kms-dev-"));
    let node: Awaited<ReturnType<typeof startKmsNode>>;
    let files: Awaited<ReturnType<typeof ensureDevCertificates>>;
    try {
      files = await ensureDevCertificates(join(dir, "certs"));
      node = await startKmsNode({
        config: {
          host, port, dataDir: join(dir, "data"), adminIdentity: undefined,
          tls: { cert: files.certFile, key: files.keyFile, ca: undefined, auth: "off" },
          hsm: { kind: "key", key: newHsmKey() }, enclaves: ["default"], audit: "stdout",
        },
      });
    } catch (err) {
      // A node that could not start (the port taken) leaves nothing of its ephemeral state either.
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    process.stderr.write(`kms: development node on https://${host}:${node.port} (ephemeral; CA ${files.caFile})\n`);
    return waitForSignal(async () => {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    });
  }
}
