import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPrng } from "@mc/consensus";
import { openHsm, openNodeState, StartupError, type KmsConfig, type NodeState } from "@mc/kms";
import { createMemoryBroker } from "@mc/shared/bus";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mutationsOf, type Mutation } from "./corruption-mutations.js";
import { fingerprint, runKmsToExit } from "./data-dir-tools.js";
import { createFixture, kmsBin } from "./kms-harness.js";

/**
 * Issue 15: with only the data directory in hand, no damage may cost an
 * acknowledged key. Every mutation of every file either refuses to start
 * (one line naming the file; the directory byte-identical) or starts with
 * every acknowledged key decrypting as before. Most runs go through the
 * in-process start path `kms server` uses (openNodeState); a few through a
 * real `kms server` process for the line and the exit status.
 */
const seed = Number(process.env.KMS_FUZZ_SEED ?? 15_2024);
const perFile = 200;
const perClusterFile = 200;
const hsmKey = `hsm:aes256:${Buffer.alloc(32, 5).toString("base64")}`;
const rootIdentity = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const clusterHost = "127.0.0.1:1";

type Caller = Parameters<NodeState["kms"]["keys"]["decrypt"]>[0];
const caller: Caller = { identity: rootIdentity, enclave: "default", path: "/", route: "/", params: {} };
const context = new TextEncoder().encode("fuzz");

interface Acked {
  readonly name: string;
  readonly ciphertext: Uint8Array;
  readonly plaintext: Uint8Array;
}

function configOf(dataDir: string, cluster: boolean): KmsConfig {
  return {
    host: "127.0.0.1", port: 0, dataDir, adminIdentity: undefined, tls: undefined,
    hsm: { kind: "key", key: hsmKey }, enclaves: ["default"], audit: "off",
    ...(cluster ? { cluster: { nats: "memory", id: "fuzz", host: clusterHost, nodes: [clusterHost] } } : {}),
  };
}

/** The in-process start: what `kms server` does before TLS, then (cluster) a linearizable read point. */
async function openInProcess(dataDir: string, cluster: boolean): Promise<NodeState> {
  const hsm = await openHsm({ kind: "key", key: hsmKey }, {});
  const bus = cluster ? createMemoryBroker().connect() : undefined;
  const state = await openNodeState({
    config: configOf(dataDir, cluster), hsm, rootIdentity, log: () => undefined, version: "fuzz",
    snapshotEvery: cluster ? 20 : 16, raftSegmentBytes: 1500, ...(bus ? { bus } : {}),
  });
  if (state.cluster) await state.cluster.linearize(5000);
  return state;
}

/** A node with keys, key versions, a snapshot and a log after it. */
async function buildNode(dataDir: string, cluster: boolean, keys: number): Promise<Acked[]> {
  const state = await openInProcess(dataDir, cluster);
  try {
    if (state.cluster) await state.node.propose({ kind: "createEnclave", name: "default" }, "");
    const acked: Acked[] = [];
    for (let i = 0; i < keys; i++) {
      const name = `key-${i}`;
      await state.kms.keys.create(caller, name, {});
      if (i % 7 === 3) await state.kms.keys.create(caller, name, { addVersion: true });
      const g = state.kms.keys.generate(caller, name, context, 32);
      acked.push({ name, ciphertext: g.ciphertext, plaintext: g.plaintext });
    }
    return acked;
  } finally {
    await state.close();
  }
}

async function filesOf(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...(await filesOf(dir, join(rel, e.name))));
    else out.push(join(rel, e.name));
  }
  return out.sort();
}

type Outcome = "refused" | "started" | "bad";

/** One mutation on a fresh copy of `pristine`: its outcome, and why when bad. */
async function tryMutation(m: Mutation, pristine: string, work: string, cluster: boolean, acked: readonly Acked[]): Promise<{ outcome: Outcome; why: string }> {
  await rm(work, { recursive: true, force: true });
  await cp(pristine, work, { recursive: true });
  await m.apply(work);
  const before = await fingerprint(work);
  let state: NodeState;
  try {
    state = await openInProcess(work, cluster);
  } catch (err) {
    const line = err instanceof StartupError ? err.message : `not a StartupError: ${String(err)}`;
    if (!/^kms: data directory is damaged: \S+ at offset \d+: [^\n]+$/.test(line)) return { outcome: "bad", why: `refused with ${line}` };
    if (!line.includes(m.file)) return { outcome: "bad", why: `the line does not name ${m.file}: ${line}` };
    const after = await fingerprint(work);
    if (JSON.stringify(after) !== JSON.stringify(before)) return { outcome: "bad", why: `the directory changed on refusal (${line})` };
    return { outcome: "refused", why: line };
  }
  try {
    if (state.firstStart) return { outcome: "bad", why: "taken for a first start" };
    for (const a of acked) {
      let plain: Uint8Array;
      try {
        plain = state.kms.keys.decrypt(caller, a.name, a.ciphertext, context).plaintext;
        state.kms.keys.describe(caller, a.name, undefined);
      } catch (err) {
        const present = [...(state.node.state().enclaves.get("default")?.keys.keys() ?? [])].length;
        return { outcome: "bad", why: `started with ${present} of ${acked.length} keys; ${a.name}: ${err instanceof Error ? err.message : String(err)}` };
      }
      if (Buffer.compare(Buffer.from(plain), Buffer.from(a.plaintext)) !== 0) return { outcome: "bad", why: `${a.name} decrypts to other bytes` };
    }
    return { outcome: "started", why: "" };
  } finally {
    await state.close();
  }
}

interface Tally {
  readonly counts: Map<string, Record<Outcome, number>>;
  readonly bad: string[];
}

async function fuzz(label: string, pristine: string, other: string, cluster: boolean, acked: readonly Acked[], minimum: number): Promise<Tally> {
  const random = createPrng(seed);
  const work = join(pristine, "..", `${label}-work`);
  const tally: Tally = { counts: new Map(), bad: [] };
  for (const file of await filesOf(pristine)) {
    for (const m of await mutationsOf(pristine, file, other, random, minimum)) {
      const r = await tryMutation(m, pristine, work, cluster, acked);
      for (const key of [`${file} (all)`, `${file} ${m.kind}`]) {
        const c = tally.counts.get(key) ?? { refused: 0, started: 0, bad: 0 };
        c[r.outcome] += 1;
        tally.counts.set(key, c);
      }
      if (r.outcome === "bad") tally.bad.push(`${m.label}: ${r.why}`);
      if (process.env.KMS_FUZZ_VERBOSE) console.log(`    ${r.outcome.padEnd(7)} ${m.label}${r.why ? `: ${r.why}` : ""}`);
    }
  }
  console.log(`\n  ${label} corruption fuzz (seed ${seed}): refused / started with every key / BAD`);
  for (const [key, c] of [...tally.counts].filter(([k]) => k.endsWith("(all)"))) console.log(`    ${key.padEnd(34)} ${String(c.refused).padStart(4)} ${String(c.started).padStart(4)} ${String(c.bad).padStart(4)}`);
  const kinds = new Map<string, Record<Outcome, number>>();
  for (const [key, c] of tally.counts) {
    if (key.endsWith("(all)")) continue;
    const kind = key.slice(key.lastIndexOf(" ") + 1);
    const k = kinds.get(kind) ?? { refused: 0, started: 0, bad: 0 };
    for (const o of ["refused", "started", "bad"] as const) k[o] += c[o];
    kinds.set(kind, k);
  }
  console.log(`    by kind: ${[...kinds].map(([k, c]) => `${k} ${c.refused}/${c.started}/${c.bad}`).join(", ")}`);
  for (const b of tally.bad.slice(0, 15)) console.log(`    BAD ${b}`);
  return tally;
}

const test = suite<{ root: string }>("kms data directory corruption fuzz", { root: "" });

test.before(async (ctx) => {
  await initCrypto();
  ctx.root = await mkdtemp(join(tmpdir(), "kms-corruption-"));
});
test.after(async (ctx) => {
  await rm(ctx.root, { recursive: true, force: true });
});

test("single node: every mutation of every file refuses (dir unchanged) or starts with every acknowledged key", async ({ root }) => {
  const pristine = join(root, "single", "data");
  const other = join(root, "single-other", "data");
  const acked = await buildNode(pristine, false, 40);
  await buildNode(other, false, 40);
  assert.equal(await filesOf(pristine), ["log.bin", "root-key.json", "snapshot.bin"]);
  const tally = await fuzz("single-node", pristine, other, false, acked, perFile);
  assert.equal(tally.bad, [], `${tally.bad.length} mutations lost keys or misreported`);
});

test("cluster member: every mutation of the Raft segments, the Raft snapshot and the root key file refuses (dir unchanged) or starts with every acknowledged key", async ({ root }) => {
  const pristine = join(root, "cluster", "data");
  const other = join(root, "cluster-other", "data");
  const acked = await buildNode(pristine, true, 30);
  await buildNode(other, true, 30);
  const files = await filesOf(pristine);
  assert.ok(files.filter((f) => f.endsWith(".seg")).length >= 2 && files.includes(join("raft", "snapshot.bin")), files.join(","));
  const tally = await fuzz("cluster-member", pristine, other, true, acked, perClusterFile);
  assert.equal(tally.bad, [], `${tally.bad.length} mutations lost keys or misreported`);
});

test("a real kms server prints the one line, exits 1 and leaves the directory as it was", async ({ root }) => {
  const fx = await createFixture("software");
  try {
    const pristine = join(root, "real", "data");
    await mkdir(join(root, "real"), { recursive: true });
    await buildNode(pristine, false, 12);
    const cases = (await mutationsOf(pristine, "log.bin", pristine, createPrng(seed), 0)).filter((m) => ["length", "delete"].includes(m.kind)).slice(0, 2);
    cases.push(...(await mutationsOf(pristine, "snapshot.bin", pristine, createPrng(seed), 0)).filter((m) => m.kind === "delete" || m.kind === "zero-page").slice(0, 2));
    cases.push(...(await mutationsOf(pristine, "root-key.json", pristine, createPrng(seed), 0)).filter((m) => m.kind === "flip").slice(0, 1));
    for (const m of cases) {
      await rm(fx.dataDir, { recursive: true, force: true });
      await cp(pristine, fx.dataDir, { recursive: true });
      await m.apply(fx.dataDir);
      const before = await fingerprint(fx.dataDir);
      const r = await runKmsToExit(kmsBin, ["server", "--config", fx.configFile], { KMS_HSM_KEY: "" });
      assert.is(r.code, 1, `${m.label}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^kms: data directory is damaged: ${m.file.replace(/\./g, "\\.")} at offset \\d+: [^\\n]+\\n$`), m.label);
      assert.is(r.stdout, "");
      assert.equal(await fingerprint(fx.dataDir), before, `${m.label}: the directory changed`);
    }
  } finally {
    await fx.cleanup();
  }
});

test.run();
