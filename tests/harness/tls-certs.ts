import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createDevCa, type DevCa } from "@mc/kms";

export interface CertFiles {
  readonly ca: DevCa;
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1/localhost, written to `dir`. */
export async function writeServerCerts(dir: string, hosts: readonly string[] = ["127.0.0.1", "localhost"]): Promise<CertFiles> {
  await mkdir(dir, { recursive: true });
  // A unique CA name: OpenSSL looks issuers up by name, so two test CAs with
  // one name would give "signature failure" instead of "unknown authority".
  const ca = await createDevCa(`test CA ${randomBytes(4).toString("hex")}`);
  const server = await ca.issueServer(hosts);
  const files = { caFile: join(dir, "ca.crt"), certFile: join(dir, "server.crt"), keyFile: join(dir, "server.key") };
  await writeFile(files.caFile, ca.cert);
  await writeFile(files.certFile, server.cert);
  await writeFile(files.keyFile, server.key, { mode: 0o600 });
  return { ca, ...files };
}
