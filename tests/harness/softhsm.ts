import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const modules = ["/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so", "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so"];

export interface SoftHsmToken {
  /** Path of the PKCS#11 module. */
  readonly module: string;
  readonly label: string;
  readonly pin: string;
  /** Environment a process needs to see this token (SOFTHSM2_CONF). */
  readonly env: Readonly<Record<string, string>>;
}

export function softHsmModule(): string | undefined {
  return modules.find((m) => existsSync(m));
}

/**
 * A SoftHSM2 token in its own directory (Debian package `softhsm2`), made
 * with `softhsm2-util --init-token`; nothing touches the system token store.
 */
export async function createSoftHsmToken(dir: string, label = "kms", pin = "1234"): Promise<SoftHsmToken> {
  const module = softHsmModule();
  if (!module) throw new Error("libsofthsm2.so not found: install the Debian package softhsm2");
  const tokens = join(dir, "tokens");
  await mkdir(tokens, { recursive: true });
  const conf = join(dir, "softhsm2.conf");
  await writeFile(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  const env = { SOFTHSM2_CONF: conf };
  await run("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "87654321"], { env: { ...process.env, ...env } });
  return { module, label, pin, env };
}
