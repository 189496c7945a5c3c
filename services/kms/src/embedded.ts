import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ensureDevCertificates, ensureHsmKeyFile } from "./dev-setup.js";
import { startKmsNode } from "./kms-node.js";
import { formatApiKey, identityOfSeed } from "./adapters/tls/api-key.js";
import { createSoftwareHsm, parseHsmKey } from "./adapters/hsm/software-hsm.js";
import { StartupError } from "./config/startup-error.js";

export interface EmbeddedKmsOptions {
  /** The KMS data directory (e.g. `.data/kms`). The HSM key file goes next to it. */
  readonly dataDir: string;
  readonly host?: string;
  readonly port?: number;
  /** Operational log lines; never secrets. */
  readonly log?: (line: string) => void;
  /** Where the development CA and server certificate live; default `<parent of dataDir>/kms-certs`. */
  readonly certDir?: string;
}

export interface EmbeddedKms {
  /** The root API key (derived from the HSM key; the same on every start). */
  readonly rootApiKey: string;
  readonly rootIdentity: string;
  /** True when this start created the data directory: print the root API key now, once. */
  readonly firstStart: boolean;
  readonly certDir: string;
  /** The development CA that signed the server certificate (clients trust this). */
  readonly caFile: string;
  readonly hsmKeyFile: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The single-node KMS of the embedded default (`npm start`): development
 * certificates and a development HSM key file (`kms-hsm.key`, mode 0600,
 * next to, not inside, the data directory) made on first start. Resolves
 * once the port is open, i.e. once the node can serve.
 */
export async function startEmbeddedKms(options: EmbeddedKmsOptions): Promise<EmbeddedKms> {
  const dataDir = resolve(options.dataDir);
  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true });
  const certDir = options.certDir ?? join(parent, "kms-certs");
  const hsmKeyFile = join(parent, "kms-hsm.key");
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const files = await ensureDevCertificates(certDir);
  const { key, created } = await ensureHsmKeyFile(hsmKeyFile);
  if (created) log(`kms: created the development HSM key ${hsmKeyFile} (kept outside the data directory)`);
  const hsmKey = parseHsmKey(key);
  if (!hsmKey) throw new StartupError(`kms: invalid HSM key in ${hsmKeyFile}`);
  const seed = await createSoftwareHsm(hsmKey).rootSeed();
  const node = await startKmsNode({
    config: {
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 7373,
      dataDir,
      adminIdentity: undefined,
      tls: { cert: files.certFile, key: files.keyFile, ca: undefined, auth: "off" },
      hsm: { kind: "key", key },
      enclaves: ["default"],
      audit: "off",
    },
    log,
    // The embedding process decides when to show the key (firstStart).
    terminal: () => undefined,
  });
  return {
    rootApiKey: formatApiKey(seed),
    rootIdentity: identityOfSeed(seed),
    firstStart: node.rootApiKey !== undefined,
    certDir,
    caFile: files.caFile,
    hsmKeyFile,
    host: node.host,
    port: node.port,
    close: () => node.close(),
  };
}
