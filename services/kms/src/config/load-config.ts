import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseConfig, type KmsConfig } from "./config.js";
import { StartupError } from "./startup-error.js";

/** Reads the YAML file and resolves its relative paths against the file's directory. */
export async function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<KmsConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new StartupError(`kms: cannot read configuration file: ${path}`);
  }
  return resolvePaths(parseConfig(text, env), dirname(resolve(path)));
}

export function resolvePaths(c: KmsConfig, base: string): KmsConfig {
  const at = (p: string): string => (p === "" ? "" : resolve(base, p));
  const audit = c.audit === "off" || c.audit === "stdout" || c.audit === "" ? c.audit : at(c.audit);
  const tls = c.tls ? { ...c.tls, cert: at(c.tls.cert), key: at(c.tls.key), ca: c.tls.ca === undefined ? undefined : at(c.tls.ca) } : undefined;
  const hsm = c.hsm?.kind === "pkcs11" ? { ...c.hsm, module: at(c.hsm.module) } : c.hsm;
  return { ...c, dataDir: at(c.dataDir), tls, hsm, audit };
}
