// A 3-node KMS cluster (real processes over a real nats-server) and an mc
// config with a root alias per node (`n1`…`n3`) trusting the cluster's CA,
// shared by the tests/mc/kms-admin-cluster* suites.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { writeServerCerts, type CertFiles } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { apiKeyOf, startMember, tlsAnswers, waitReady, writeClusterConfigs, type Member } from "../kms/cluster-harness.js";
import { runMc, type McResult } from "./mc-runner.js";

export interface ClusterMcCtx {
  dir: string;
  configDir: string;
  nats: NatsNode | undefined;
  certs: CertFiles | undefined;
  ca: Buffer;
  apiKey: string;
  members: Member[];
  /** Root clients, one per member, in member order. */
  clients: KmsClient[];
}

export const emptyClusterMcCtx = (): ClusterMcCtx => ({ dir: "", configDir: "", nats: undefined, certs: undefined, ca: Buffer.alloc(0), apiKey: "", members: [], clients: [] });

export const mc = (ctx: ClusterMcCtx, args: readonly string[], input?: string): Promise<McResult> => runMc(["-C", ctx.configDir, ...args], input === undefined ? {} : { input });
export const ok = (r: McResult): McResult => {
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  return r;
};
/** `n1`, `app2`, …: the alias of member i with a prefix. */
export const alias = (prefix: string, i: number): string => `${prefix}${i + 1}`;

export async function startClusterForMc(ctx: ClusterMcCtx, prefix: string): Promise<void> {
  ctx.dir = await mkdtemp(join(tmpdir(), prefix));
  ctx.configDir = join(ctx.dir, "mc");
  ctx.nats = await startNatsServer();
  ctx.certs = await writeServerCerts(join(ctx.dir, "certs"));
  ctx.ca = await readFile(ctx.certs.caFile);
  ctx.members = await writeClusterConfigs(ctx.dir, 3, ctx.nats.url, ctx.certs);
  for (const m of ctx.members) startMember(m);
  // Three processes compiling their sources at once take a while on a busy machine.
  for (const m of ctx.members) await waitReady(ctx.ca, m, 60000);
  ctx.apiKey = apiKeyOf(ctx.members) ?? "";
  ctx.clients = await Promise.all(ctx.members.map((m) => createKmsClient({ server: m.host, ca: ctx.ca, apiKey: ctx.apiKey })));
  for (const [i, m] of ctx.members.entries()) ok(await mc(ctx, ["alias", "set", alias("n", i), `https://${m.host}`, "--api-key", ctx.apiKey]));
  await copyFile(ctx.certs.caFile, join(ctx.configDir, "certs", "CAs", "kms.crt"));
}

export async function stopClusterForMc(ctx: ClusterMcCtx): Promise<void> {
  for (const c of ctx.clients) c.close();
  for (const m of ctx.members) await m.proc?.kill();
  await ctx.nats?.stop();
  await rm(ctx.dir, { recursive: true, force: true });
}

/**
 * A node outside the cluster on a free port, configured as member 1 is but
 * with its own address, the cluster's nodes unchanged (so it waits to be
 * added) unless `edit` changes the YAML; started and listening.
 */
export async function startExtraNode(ctx: ClusterMcCtx, name: string, edit: (yaml: string, self: string) => string = (y) => y): Promise<Member> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const first = await readFile(ctx.members[0]?.configFile ?? "", "utf8");
  const yaml = first.replace(/^address: .*$/m, `address: ${host}`).replace(/^ {2}host: .*$/m, `  host: ${host}`);
  await mkdir(join(ctx.dir, name), { recursive: true });
  const m: Member = { port, host, configFile: join(ctx.dir, name, "kms.yaml"), proc: undefined };
  await writeFile(m.configFile, edit(yaml, host));
  startMember(m);
  await waitFor(() => tlsAnswers(port), { what: `${name} listening`, timeoutMs: 30000 });
  return m;
}
