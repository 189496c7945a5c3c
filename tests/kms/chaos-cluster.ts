// The chaos test's cluster: three routed nats-servers and three KMS nodes as
// real processes, with what the nemesis and the checks ask of them (leader,
// restart, convergence, each node's own replica). `stop` undoes whatever part
// of `start` happened, so a failed setup leaves no process behind.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { writeServerCerts } from "../harness/tls-certs.js";
import { waitFor } from "../harness/wait-for.js";
import { startChaosNats, type ChaosNats } from "./chaos-nats.js";
import type { ChaosCluster } from "./chaos-nemesis.js";
import { apiKeyOf, idOf, startMember, waitReady, writeClusterConfigs, type Member } from "./cluster-harness.js";

// A distinctive cluster id, so a message that names it can be told from ordinary words.
export const chaosClusterId = "chaoslab";

interface NodeStatus {
  node_id: string;
  leader_id: string;
  role: string;
  term: number;
  commit_index: number;
  applied_index: number;
}

export interface ChaosSetup extends ChaosCluster {
  start(): Promise<void>;
  /** One client per writer, each starting at another node and failing over to the other two. */
  writerClients(count: number): Promise<KmsClient[]>;
  /** Waits until every node has applied the same index as its commit index; resolves that index. */
  converged(timeoutMs?: number): Promise<number>;
  /** The key names each node's own replica holds (`?stale=true`, so no read goes through the leader). */
  replicas(): Promise<Map<string, Set<string>>>;
  stop(): Promise<void>;
}

export function createChaosCluster(): ChaosSetup {
  let dir = "";
  let ca = Buffer.alloc(0);
  let apiKey = "";
  let nats: ChaosNats | undefined;
  let members: Member[] = [];
  // Short timeouts: a paused node must not hold up the nemesis' leader probe for long.
  let probes: KmsClient[] = [];
  const clients: KmsClient[] = [];

  const statusOf = async (c: KmsClient): Promise<NodeStatus | undefined> => {
    const res = await c.send("GET", "/v1/status").catch(() => undefined);
    return res?.status === 200 ? (JSON.parse(res.body.toString("utf8")) as NodeStatus) : undefined;
  };
  const leaderNow = async (): Promise<Member | undefined> => {
    const all = await Promise.all(probes.map(statusOf));
    const leaders = all.filter((s) => s?.role === "leader");
    const id = leaders[0]?.node_id;
    if (leaders.length !== 1 || !all.every((s) => s?.leader_id === id)) return undefined;
    return members.find((m) => idOf(m) === id);
  };

  const setup: ChaosSetup = {
    get members() {
      return members;
    },
    get nats() {
      if (!nats) throw new Error("the chaos cluster is not started");
      return nats;
    },
    async start() {
      dir = await mkdtemp(join(tmpdir(), "kms-chaos-"));
      const certs = await writeServerCerts(join(dir, "certs"));
      ca = await readFile(certs.caFile);
      nats = await startChaosNats();
      members = await writeClusterConfigs(dir, 3, nats.urls, certs);
      for (const m of members) {
        const yaml = await readFile(m.configFile, "utf8");
        await writeFile(m.configFile, yaml.replace(/^ {2}id: .*$/m, `  id: ${chaosClusterId}`));
      }
      for (const m of members) startMember(m);
      for (const m of members) await waitReady(ca, m, 60000);
      apiKey = apiKeyOf(members) ?? "";
      if (apiKey === "") throw new Error("no node printed the root API key");
      probes = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey, timeoutMs: 5000 })));
      await setup.leader();
    },
    leader: () => waitFor(leaderNow, { what: "one agreed leader", timeoutMs: 30000, intervalMs: 100 }),
    async restart(m) {
      startMember(m);
      await waitReady(ca, m, 60000);
    },
    async writerClients(count) {
      const hosts = members.map((m) => m.host);
      for (let w = 0; w < count; w++) {
        const order = hosts.map((_, i) => hosts[(w + i) % hosts.length] ?? "");
        clients.push(await createKmsClient({ server: order[0] ?? "", fallbacks: order.slice(1), ca, apiKey }));
      }
      return clients.slice(-count);
    },
    converged: (timeoutMs = 60000) =>
      waitFor(
        async () => {
          const all = await Promise.all(probes.map(statusOf));
          const first = all[0];
          if (!first || (await leaderNow()) === undefined) return undefined;
          return all.every((s) => s !== undefined && s.applied_index === first.applied_index && s.commit_index === s.applied_index) && first.applied_index;
        },
        { what: "every node applying the same index", timeoutMs, intervalMs: 200 },
      ),
    async replicas() {
      const out = new Map<string, Set<string>>();
      for (const [i, c] of probes.entries()) {
        const names = new Set<string>();
        for (let at = ""; ; ) {
          const page = await c.call<{ names: string[]; continue_at: string }>("GET", `/v1/key/list/w*?stale=true&limit=5000${at ? `&continue_at=${encodeURIComponent(at)}` : ""}`);
          for (const n of page.names) names.add(n);
          if (page.continue_at === "" || page.continue_at === at) break;
          at = page.continue_at;
        }
        out.set(members[i]?.host ?? `node ${i}`, names);
      }
      return out;
    },
    async stop() {
      for (const c of [...probes, ...clients]) c.close();
      for (const m of members) await m.proc?.kill();
      await nats?.stop();
      if (dir !== "") await rm(dir, { recursive: true, force: true });
    },
  };
  return setup;
}
