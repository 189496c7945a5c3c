// The cluster's secrets, made once and kept: a CA, one server certificate per
// KMS node (its SANs are the names the node is addressed by), the shared
// software HSM key and a root API key. Used by the launcher and by the
// compose init service, so both deployments get the same layout.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createDevCa, identityOfSeed, newApiKey, parseApiKey } from "@mc/kms";
import { reopenCa } from "./reopen-ca.js";

export interface NodeCertSpec {
  /** File stem: `<name>.crt` and `<name>.key`. */
  readonly name: string;
  /** SANs: DNS names and IPs the node is addressed by. */
  readonly hosts: readonly string[];
}

export interface SecretFiles {
  readonly dir: string;
  readonly caFile: string;
  readonly hsmKeyFile: string;
  readonly apiKeyFile: string;
  certOf(name: string): { cert: string; key: string };
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

export function secretFiles(dir: string): SecretFiles {
  return {
    dir,
    caFile: join(dir, "ca.crt"),
    hsmKeyFile: join(dir, "hsm.key"),
    apiKeyFile: join(dir, "root-api-key"),
    certOf: (name) => ({ cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) }),
  };
}

/** `hsm:aes256:<std-base64 of 32 bytes>` (contract §7), the format `kms hsm new` prints. */
export const newSoftwareHsmKey = (): string => `hsm:aes256:${randomBytes(32).toString("base64")}`;

async function writeSecret(path: string, text: string): Promise<void> {
  await writeFile(path, text, { mode: 0o600 });
  await chmod(path, 0o600);
}

/**
 * Creates whatever is missing and keeps what exists, so a second run (or a
 * restarted init container) changes nothing. A node whose certificate is
 * missing gets a new one from the existing CA key.
 */
export interface EnsureOptions {
  /** Also make a root API key (the launcher's nodes take its identity as admin.identity). */
  readonly apiKey?: boolean;
  /** Where the CA key lives; default DIR. Compose keeps it out of the volume the nodes mount. */
  readonly caKeyDir?: string;
}

export async function ensureSecrets(dir: string, nodes: readonly NodeCertSpec[], options: EnsureOptions = {}): Promise<{ files: SecretFiles; created: string[] }> {
  const files = secretFiles(dir);
  const created: string[] = [];
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (options.caKeyDir) await mkdir(options.caKeyDir, { recursive: true, mode: 0o700 });
  const caKeyFile = join(options.caKeyDir ?? dir, "ca.key");
  const missing: NodeCertSpec[] = [];
  for (const n of nodes) if (!(await exists(files.certOf(n.name).cert)) || !(await exists(files.certOf(n.name).key))) missing.push(n);
  if (missing.length > 0) {
    if ((await exists(files.caFile)) !== (await exists(caKeyFile))) throw new Error(`only half of the CA exists (${files.caFile}, ${caKeyFile}): restore the other file or remove both`);
    if (!(await exists(files.caFile))) {
      const ca = await createDevCa(`mc cluster CA ${randomBytes(3).toString("hex")}`);
      await writeSecret(caKeyFile, ca.key);
      await writeFile(files.caFile, ca.cert);
      created.push(files.caFile);
    }
    const ca = await reopenCa(await readFile(files.caFile, "utf8"), await readFile(caKeyFile, "utf8"));
    for (const n of missing) {
      const pair = await ca.issueServer(n.hosts);
      const f = files.certOf(n.name);
      await writeSecret(f.key, pair.key);
      await writeFile(f.cert, pair.cert);
      created.push(f.cert);
    }
  }
  if (!(await exists(files.hsmKeyFile))) {
    await writeSecret(files.hsmKeyFile, `${newSoftwareHsmKey()}\n`);
    created.push(files.hsmKeyFile);
  }
  if ((options.apiKey ?? true) && !(await exists(files.apiKeyFile))) {
    await writeSecret(files.apiKeyFile, `${newApiKey()}\n`);
    created.push(files.apiKeyFile);
  }
  return { files, created };
}

/** The root API key and its `h1:` identity (the nodes' `admin.identity`). */
export async function readRootKey(files: SecretFiles): Promise<{ apiKey: string; identity: string }> {
  const apiKey = (await readFile(files.apiKeyFile, "utf8")).trim();
  const seed = parseApiKey(apiKey);
  if (!seed) throw new Error(`${files.apiKeyFile} does not hold a k1: API key`);
  return { apiKey, identity: identityOfSeed(seed) };
}

export const readHsmKey = async (files: SecretFiles): Promise<string> => (await readFile(files.hsmKeyFile, "utf8")).trim();
