// The places a documented block runs in, one per kind (tests/README.md):
//   none      a clone view (below), a clean HOME, mc/kms/releases/gateway on PATH
//   embedded  the same, with `npm start`'s gateway and KMS serving `.data/` on free ports
//   cluster   the same, with `npm run cluster -- up` (state in `.cluster/`, free ports)
//   rgw       the same, with a Ceph RGW and an mc alias `rgw` for it
//   clone     a fresh copy of the repository without node_modules, PATH without its
//             bins, npm offline on this machine's cache: the state right after `git clone`
// A clone view is a temp folder whose entries link to the repository's (not .git,
// .data, .cluster), so commands "from the clone" work while what they write stays
// in the temp folder. The docs show the default addresses (127.0.0.1:8080, :7373,
// :4222, :7480) and placeholder credentials; `substitutions` maps them to the fixture's.
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startCephRgw } from "../harness/ceph-rgw.js";
import { freePort } from "../harness/free-port.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { cluster, killClusterOnExit, readState } from "../ops/ops-harness.js";
import type { FixtureKind } from "./doc-blocks.js";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const repoBin = join(repoRoot, "node_modules", ".bin");

export interface Fixture {
  readonly kind: FixtureKind;
  readonly root: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Text of the docs → this fixture's (addresses, credentials), applied to blocks and their output. */
  readonly substitutions: ReadonlyArray<readonly [string, string]>;
  /** The gateway's base URL, where there is one. */
  readonly gatewayUrl?: string;
  /** The KMS root API key and CA file, where there is a KMS. */
  readonly kms?: { readonly apiKey: string; readonly caFile: string };
  /** Runs before each block after the first (the cluster is brought back up if a block took it down). */
  beforeBlock(): Promise<void>;
  /** The servers' last log lines, for a failure message. */
  diagnostics(): Promise<string>;
  stop(): Promise<void>;
}

/** The environment of a user's shell: nothing of npm's, of the test run's or of the developer's settings. */
function userEnv(home: string, withBins: boolean, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const drop = /^(npm_|MC_|AWS_|KMS_|RELEASES_|NATS_URL$|DATA_DIR$|GATEWAY_LISTEN$|KMS_LISTEN$|BASE_URL$|INIT_CWD$|NODE_ENV$|NODE$|FORCE_COLOR$|LOG_LEVEL$|COLOR$|EDITOR$)/i;
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) env[k] = v;
  const path = (process.env["PATH"] ?? "").split(":").filter((p) => p !== "" && !p.includes("node_modules/.bin") && !p.includes("node-gyp-bin"));
  // As after the README's install step: export PATH="$PWD/node_modules/.bin:$PATH".
  env["PATH"] = [...(withBins ? [repoBin] : []), ...path].join(":");
  env["HOME"] = home;
  env["NO_COLOR"] = "1";
  env["npm_config_update_notifier"] = "false";
  return { ...env, ...extra };
}

async function cloneView(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(repoRoot)) {
    if ([".git", ".data", ".cluster", ".scratch"].includes(name)) continue;
    await symlink(join(repoRoot, name), join(dir, name));
  }
}

interface Base {
  readonly root: string;
  readonly cwd: string;
  readonly home: string;
}

async function base(kind: FixtureKind): Promise<Base> {
  const root = await mkdtemp(join(tmpdir(), `docs-${kind}-`));
  const home = join(root, "home");
  const cwd = join(root, "clone");
  await mkdir(home);
  if (kind !== "clone") await cloneView(cwd);
  return { root, cwd, home };
}

const noop = async (): Promise<void> => undefined;
const nothing = async (): Promise<string> => "";

/** The last lines of each log file in a folder. */
async function logTails(dir: string, lines = 15): Promise<string> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names.sort()) out.push(`--- ${n} ---\n${(await readFile(join(dir, n), "utf8")).split("\n").slice(-lines).join("\n")}`);
  return out.join("\n");
}

async function none(b: Base): Promise<Fixture> {
  return { kind: "none", ...b, env: userEnv(b.home, true), substitutions: [], beforeBlock: noop, diagnostics: nothing, stop: () => rm(b.root, { recursive: true, force: true }) };
}

async function embedded(b: Base): Promise<Fixture> {
  const [port, kmsPort] = [await freePort(), await freePort()];
  const env = userEnv(b.home, true);
  // What `npm start` runs (its pre-hook only installs and checks Node), on free ports, in `.data/` of the clone view.
  const gateway = startProcess(process.execPath, [join(repoRoot, "gateway", "bin", "gateway.js")], {
    cwd: b.cwd,
    env: { ...env, GATEWAY_LISTEN: `127.0.0.1:${port}`, KMS_LISTEN: `127.0.0.1:${kmsPort}` },
  });
  const gatewayUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (gateway.child.exitCode !== null) throw new Error(`npm start's gateway exited: ${gateway.output()}`);
      return (await fetch(`${gatewayUrl}/healthz`)).ok;
    },
    { what: "the embedded gateway", timeoutMs: 90_000 },
  );
  const apiKey = /root API key[^:\n]*:\s*(k1:\S+)/.exec(gateway.output())?.[1];
  if (!apiKey) throw new Error(`no root API key on the first start's stderr: ${gateway.output()}`);
  return {
    kind: "embedded",
    ...b,
    env,
    gatewayUrl,
    kms: { apiKey, caFile: join(b.cwd, ".data", "kms-certs", "ca.crt") },
    substitutions: [
      ["127.0.0.1:8080", `127.0.0.1:${port}`],
      ["127.0.0.1:7373", `127.0.0.1:${kmsPort}`],
    ],
    beforeBlock: noop,
    diagnostics: async () => `--- npm start ---\n${gateway.output().slice(-3000)}`,
    async stop() {
      await gateway.stop();
      await rm(b.root, { recursive: true, force: true });
    },
  };
}

async function clusterFixture(b: Base): Promise<Fixture> {
  const dir = join(b.cwd, ".cluster");
  const env = userEnv(b.home, true, { MC_CLUSTER_DIR: dir, MC_CLUSTER_PORTS: "auto" });
  killClusterOnExit(dir);
  const up = async (): Promise<void> => {
    const r = await cluster(["up"], env);
    if (r.code !== 0) throw new Error(`npm run cluster -- up: exit ${r.code}\n${r.stdout}${r.stderr}`);
  };
  await up();
  const { ports } = await readState(dir);
  const substitutions: [string, string][] = [["127.0.0.1:8080", `127.0.0.1:${ports.gateway}`]];
  ports.kms.forEach((p, i) => substitutions.push([`127.0.0.1:${7373 + i}`, `127.0.0.1:${p}`]));
  ports.nats.forEach((p, i) => substitutions.push([`127.0.0.1:${4222 + i}`, `127.0.0.1:${p.client}`]));
  return {
    kind: "cluster",
    ...b,
    env,
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    substitutions,
    // `up` again only when a block took the cluster down: then its gateway no longer answers.
    beforeBlock: async () => {
      const running = await fetch(`http://127.0.0.1:${ports.gateway}/healthz`).then((r) => r.ok, () => false);
      if (!running) await up();
    },
    diagnostics: () => logTails(join(dir, "logs")),
    async stop() {
      await cluster(["down"], env);
      await rm(b.root, { recursive: true, force: true });
    },
  };
}

async function rgw(b: Base): Promise<Fixture> {
  const s3 = await startCephRgw();
  const env = userEnv(b.home, true);
  const substitutions: [string, string][] = [
    ["http://127.0.0.1:7480", s3.endpoint],
    ["ACCESS_KEY", s3.accessKey],
    ["SECRET_KEY", s3.secretKey],
  ];
  // The alias the docs' examples use, ready as after their first line.
  execFileSync(process.execPath, [join(repoRoot, "cli", "bin", "mc.js"), "alias", "set", "rgw", s3.endpoint, s3.accessKey, s3.secretKey], { env, cwd: b.cwd, stdio: "pipe" });
  return {
    kind: "rgw",
    ...b,
    env,
    substitutions,
    beforeBlock: noop,
    diagnostics: nothing,
    async stop() {
      await s3.stop();
      await rm(b.root, { recursive: true, force: true });
    },
  };
}

/** The files a clone has: tracked and new ones, never what .gitignore names (node_modules, .data, …). */
function cloneFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return out.split("\0").filter((f) => f !== "");
}

async function clone(b: Base): Promise<Fixture> {
  for (const file of cloneFiles()) {
    await mkdir(dirname(join(b.cwd, file)), { recursive: true });
    await copyFile(join(repoRoot, file), join(b.cwd, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err; // deleted in the work tree, not yet in the index
    });
  }
  // npm on this machine's cache and nothing else (a test never leaves loopback), with the
  // user's npm settings (node-gyp's nodedir among them: pkcs11js builds against local headers).
  const cache = process.env["npm_config_cache"] ?? join(homedir(), ".npm");
  const userconfig = process.env["npm_config_userconfig"] ?? join(homedir(), ".npmrc");
  const env = userEnv(b.home, false, { npm_config_offline: "true", npm_config_cache: cache, npm_config_userconfig: userconfig, npm_config_audit: "false", npm_config_fund: "false" });
  return { kind: "clone", ...b, env, substitutions: [], beforeBlock: noop, diagnostics: nothing, stop: () => rm(b.root, { recursive: true, force: true }) };
}

const starters: Record<FixtureKind, (b: Base) => Promise<Fixture>> = { none, embedded, cluster: clusterFixture, rgw, clone };

export async function startFixture(kind: FixtureKind): Promise<Fixture> {
  const b = await base(kind);
  try {
    return await starters[kind](b);
  } catch (err) {
    await rm(b.root, { recursive: true, force: true });
    throw err;
  }
}
