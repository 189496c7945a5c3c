// Shared by the real-process cluster tests: configs for N founding nodes over
// one nats-server, start/ready helpers and the "one agreed leader" probe.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { clientCertificateOf, parseApiKey, type KmsClient } from "@mc/kms";
import { ClusterService } from "@mc/kms/gen/kms/v1/cluster_pb.js";
import { freePort } from "../harness/free-port.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess, type Started } from "../harness/processes.js";
import { writeServerCerts, type CertFiles } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { getStatus, kmsBin } from "./kms-harness.js";

export interface Member {
  readonly port: number;
  readonly host: string;
  readonly configFile: string;
  proc: Started | undefined;
}

export interface ClusterStatus {
  node_id: string;
  leader_id: string;
  role: string;
  term: number;
}

export const testHsmKey = `hsm:aes256:${Buffer.alloc(32, 7).toString("base64")}`;
const env = { ...process.env, KMS_HSM_KEY: "" };

/** One kms.yaml per founding node under `dir/n<i>`, all naming every node. */
export async function writeClusterConfigs(dir: string, count: number, natsUrl: string, certs: CertFiles, hsmKey = testHsmKey): Promise<Member[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const hosts = ports.map((p) => `127.0.0.1:${p}`);
  const members: Member[] = [];
  for (const [i, port] of ports.entries()) {
    const nodeDir = join(dir, `n${i + 1}`);
    await mkdir(nodeDir, { recursive: true });
    const configFile = join(nodeDir, "kms.yaml");
    const yaml = [
      "version: v1",
      `address: 127.0.0.1:${port}`,
      "data_dir: data",
      "tls:",
      `  cert: ${certs.certFile}`,
      `  key: ${certs.keyFile}`,
      "hsm:",
      `  key: ${hsmKey}`,
      "enclaves: [default]",
      "cluster:",
      `  nats: ${natsUrl}`,
      "  id: test",
      `  host: ${hosts[i] ?? ""}`,
      `  nodes: [${hosts.join(", ")}]`,
      "log:",
      "  audit: off",
    ].join("\n");
    await writeFile(configFile, `${yaml}\n`);
    members.push({ port, host: hosts[i] ?? "", configFile, proc: undefined });
  }
  return members;
}

/** Starts a member's process; `nodeArgs` go to node before the KMS (a `--require` preload, for one). */
export const startMember = (m: Member, nodeArgs: readonly string[] = []): Started =>
  (m.proc = startProcess(process.execPath, [...nodeArgs, ...(process.env.KMS_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.KMS_PROF}`] : []), kmsBin, "server", "--config", m.configFile], { env }));

export const idOf = (m: Member): string => m.host.replace(/[^A-Za-z0-9_-]/g, "_");

// A minute: on a busy 2-core machine, three nodes starting at once (tsx compiling each) took over 20 s.
export async function waitReady(ca: Buffer, m: Member, timeoutMs = 60000): Promise<void> {
  await waitFor(
    async () => {
      if (m.proc && m.proc.child.exitCode !== null) throw new Error(`kms ${m.host} exited: ${m.proc.output()}`);
      return (await getStatus(m.port, "/v1/health/ready", ca).catch(() => 0)) === 200;
    },
    { what: `kms ${m.host} ready`, timeoutMs },
  );
}

/** The root API key a founding node printed on its first start. */
export const apiKeyOf = (members: readonly Member[]): string | undefined =>
  members.map((m) => /API Key (k1:\S+)/.exec(m.proc?.output() ?? "")?.[1]).find((k) => k !== undefined);

/** True once a TLS handshake on the port completes (no name or chain check). */
export const tlsAnswers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

export async function statusOf(c: KmsClient): Promise<ClusterStatus | undefined> {
  const res = await c.send("GET", "/v1/status").catch(() => undefined);
  return res?.status === 200 ? (JSON.parse(new TextDecoder().decode(res.body)) as ClusterStatus) : undefined;
}

/** The member every live node agrees leads, and its term. */
export async function agreedLeader(clients: readonly KmsClient[], not?: string): Promise<{ id: string; term: number }> {
  return waitFor(
    async () => {
      const all = await Promise.all(clients.map(statusOf));
      const leaders = all.filter((s): s is ClusterStatus => s?.role === "leader");
      const first = leaders[0];
      if (leaders.length !== 1 || !first || first.node_id === not) return undefined;
      return all.every((s) => s?.leader_id === first.node_id) ? { id: first.node_id, term: first.term } : undefined;
    },
    { what: "one agreed leader", timeoutMs: 15000, intervalMs: 50 },
  );
}

/** A Connect ClusterService client for `m`, authenticated as the API key's identity. */
export async function connectCluster(m: Member, ca: Buffer, apiKey: string) {
  const cert = await clientCertificateOf(parseApiKey(apiKey) ?? new Uint8Array(0));
  const transport = createConnectTransport({ baseUrl: `https://${m.host}`, httpVersion: "1.1", nodeOptions: { ca, cert: cert.cert, key: cert.key } });
  return createClient(ClusterService, transport);
}

/** What a real-process cluster suite holds: its folder, nats-server, certificates and members. */
export interface ClusterCtx {
  dir: string;
  nats: NatsNode | undefined;
  certs: CertFiles | undefined;
  ca: Buffer;
  members: Member[];
}

export const emptyClusterCtx = (): ClusterCtx => ({ dir: "", nats: undefined, certs: undefined, ca: Buffer.alloc(0), members: [] });

/** A temp folder, one nats-server, server certificates and `count` founding configs (nodes not started). */
export async function setUpCluster(ctx: ClusterCtx, prefix: string, count: number): Promise<void> {
  ctx.dir = await mkdtemp(join(tmpdir(), prefix));
  ctx.nats = await startNatsServer();
  ctx.certs = await writeServerCerts(join(ctx.dir, "certs"));
  ctx.ca = await readFile(ctx.certs.caFile);
  ctx.members = await writeClusterConfigs(ctx.dir, count, ctx.nats.url, ctx.certs);
}

/** Kills every member, stops nats-server and removes the folder. */
export async function tearDownCluster(ctx: ClusterCtx): Promise<void> {
  for (const m of ctx.members) await m.proc?.kill();
  await ctx.nats?.stop();
  if (ctx.dir !== "") await rm(ctx.dir, { recursive: true, force: true });
}
