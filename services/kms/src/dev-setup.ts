import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createDevCa } from "./adapters/tls/dev-certs.js";
import { newHsmKey } from "./adapters/hsm/software-hsm.js";

const exists = (p: string) => stat(p).then(() => true, () => false);

export interface DevFiles {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Creates (once) a development CA and a server certificate for the given hosts. */
export async function ensureDevCertificates(certDir: string, hosts: readonly string[] = ["127.0.0.1", "localhost", "::1"]): Promise<DevFiles> {
  const files = { caFile: join(certDir, "ca.crt"), certFile: join(certDir, "kms.crt"), keyFile: join(certDir, "kms.key") };
  if ((await exists(files.caFile)) && (await exists(files.certFile)) && (await exists(files.keyFile))) return files;
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const ca = await createDevCa();
  const server = await ca.issueServer(hosts);
  await writeFile(join(certDir, "ca.key"), ca.key, { mode: 0o600 });
  await writeFile(files.caFile, ca.cert);
  await writeFile(files.keyFile, server.key, { mode: 0o600 });
  await writeFile(files.certFile, server.cert);
  return files;
}

/** Reads the development HSM key file, creating it (mode 0600) on first use. */
export async function ensureHsmKeyFile(path: string): Promise<{ key: string; created: boolean }> {
  if (await exists(path)) return { key: (await readFile(path, "utf8")).trim(), created: false };
  const key = newHsmKey();
  await writeFile(path, `${key}\n`, { mode: 0o600, flag: "wx" });
  await chmod(path, 0o600);
  return { key, created: true };
}
