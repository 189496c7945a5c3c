import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:https";
import { fileURLToPath } from "node:url";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { freePort } from "../harness/free-port.js";
import { startProcess, type Started } from "../harness/processes.js";
import { createSoftHsmToken } from "../harness/softhsm.js";
import { writeServerCerts, type CertFiles } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";

export const kmsBin = fileURLToPath(new URL("../../services/kms/bin/kms.js", import.meta.url));

export interface KmsFixture {
  readonly dir: string;
  readonly certs: CertFiles;
  readonly hsmKey: string;
  readonly dataDir: string;
  readonly configFile: string;
  port: number;
  /** The HSM the fixture configures: software by default, SoftHSM2 with KMS_TEST_HSM=pkcs11. */
  readonly hsmKind: "software" | "pkcs11";
  /** Environment the server needs (PKCS#11 token location and PIN). */
  readonly env: Readonly<Record<string, string>>;
  /** Writes kms.yaml from the given YAML text (paths relative to `dir`). */
  writeConfig(yaml: string): Promise<void>;
  defaultYaml(extra?: string): string;
  cleanup(): Promise<void>;
}

export async function createFixture(hsmKind: "software" | "pkcs11" = process.env.KMS_TEST_HSM === "pkcs11" ? "pkcs11" : "software"): Promise<KmsFixture> {
  const dir = await mkdtemp(join(tmpdir(), "kms-test-"));
  const certs = await writeServerCerts(join(dir, "certs"));
  const hsmKey = `hsm:aes256:${Buffer.alloc(32, 5).toString("base64")}`;
  const port = await freePort();
  const token = hsmKind === "pkcs11" ? await createSoftHsmToken(join(dir, "softhsm")) : undefined;
  const hsmLines = token
    ? ["hsm:", `  pkcs11: {module: ${token.module}, token: ${token.label}, pin_env: KMS_HSM_PIN, key_label: kms-root}`]
    : ["hsm:", `  key: ${hsmKey}`];
  const fx: KmsFixture = {
    hsmKind,
    env: token ? { ...token.env, KMS_HSM_PIN: token.pin } : {},
    dir,
    certs,
    hsmKey,
    dataDir: join(dir, "data"),
    configFile: join(dir, "kms.yaml"),
    port,
    writeConfig: (yaml) => writeFile(join(dir, "kms.yaml"), yaml),
    defaultYaml: (extra = "") =>
      [
        "version: v1",
        `address: 127.0.0.1:${fx.port}`,
        "data_dir: data",
        "tls:",
        "  cert: certs/server.crt",
        "  key: certs/server.key",
        ...hsmLines,
        "enclaves: [default, other]",
        "log:",
        "  audit: audit.log",
        extra,
      ].join("\n"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  await fx.writeConfig(fx.defaultYaml());
  return fx;
}

/** GET over TLS without a client certificate; resolves the status, rejects on connection errors. */
export function getStatus(port: number, path: string, ca: Buffer | string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

export interface RunningKms {
  readonly proc: Started;
  readonly rootApiKey: string | undefined;
  client(apiKey?: string, enclave?: string): Promise<KmsClient>;
}

/** Runs `kms server --config` as a child process and waits until it answers ready. */
export async function runKms(fx: KmsFixture, env: NodeJS.ProcessEnv = {}): Promise<RunningKms> {
  const proc = startProcess(process.execPath, [kmsBin, "server", "--config", fx.configFile], { env: { ...process.env, ...fx.env, ...env } });
  const ca = await readFile(fx.certs.caFile);
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`kms exited: ${proc.output()}`);
      return (await getStatus(fx.port, "/v1/health/ready", ca)) === 200;
    },
    { what: "kms ready", timeoutMs: 60000 },
  );
  const rootApiKey = /API Key (k1:\S+)/.exec(proc.output())?.[1];
  return {
    proc,
    rootApiKey,
    client: (apiKey = rootApiKey, enclave) =>
      createKmsClient({ server: `127.0.0.1:${fx.port}`, ca, ...(apiKey ? { apiKey } : {}), ...(enclave ? { enclave } : {}) }),
  };
}

/** Runs the CLI to completion: exit code and stderr. */
export async function runKmsCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const proc = startProcess(process.execPath, [kmsBin, ...args], { env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  proc.child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
  proc.child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => proc.child.once("close", (c) => resolve(c)));
  await proc.stop();
  return { code, stderr, stdout };
}
