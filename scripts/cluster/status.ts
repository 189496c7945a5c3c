// `npm run cluster -- status`: every process, and each KMS node's role and
// readiness as the cluster itself reports them (the leader by name).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createKmsClient } from "@mc/kms";
import { runningPid } from "./processes.js";
import { readHsmKey, readRootKey } from "./secrets.js";
import { kmsGet, kmsNames, secretsOf, services } from "./services.js";
import { kmsHost, loadTopology, stateFile } from "./topology.js";
import { ClusterError } from "./up.js";

interface ClusterStatus {
  leader_id: string;
  term: number;
  nodes: { id: string; host: string; role: string; up: boolean; lag: number }[];
}

export interface StatusReport {
  readonly lines: string[];
  /** Every process runs, every KMS node is ready and one leads. */
  readonly healthy: boolean;
}

const idOf = (host: string): string => host.replace(/[^A-Za-z0-9_-]/g, "_");

export async function status(dir: string): Promise<StatusReport> {
  if (!existsSync(stateFile(dir))) throw new ClusterError(`no cluster in ${dir}: start one with \`npm run cluster -- up\``);
  const { topology: t } = await loadTopology(dir);
  const files = secretsOf(t);
  const list = services(t, () => readHsmKey(files));
  const ca = await readFile(files.caFile);
  const pids = await Promise.all(list.map((s) => runningPid(dir, s.name)));
  if (pids.every((p) => p === undefined)) return { lines: [`cluster is not up (${dir}): start it with \`npm run cluster -- up\``], healthy: false };
  const lines: string[] = [];
  let healthy = true;
  // The cluster's own view, from the first node that answers.
  let cluster: ClusterStatus | undefined;
  const { apiKey } = await readRootKey(files);
  for (const port of t.ports.kms) {
    const client = await createKmsClient({ server: kmsHost(port), apiKey, ca, timeoutMs: 3000 });
    try {
      cluster = await client.call<ClusterStatus>("GET", "/v1/cluster/status");
      break;
    } catch {
      // Try the next node.
    } finally {
      client.close();
    }
  }
  const leader = cluster?.nodes.find((n) => n.id === cluster?.leader_id);
  const leaderName = leader ? kmsNames[t.ports.kms.findIndex((p) => kmsHost(p) === leader.host)] : undefined;
  lines.push(leader ? `leader: ${leaderName ?? leader.id} (${leader.host}), term ${cluster?.term}` : "leader: none (no node knows a leader)");
  if (!leader) healthy = false;
  for (const [i, s] of list.entries()) {
    const pid = pids[i];
    let state = pid === undefined ? "stopped" : `running (pid ${pid})`;
    if (s.kind === "kms") {
      const port = t.ports.kms[kmsNames.indexOf(s.name as (typeof kmsNames)[number])] ?? 0;
      const member = cluster?.nodes.find((n) => n.id === idOf(kmsHost(port)));
      const ready = pid !== undefined && (await kmsGet(port, "/v1/health/ready", ca)) === 200;
      state += `  role ${member?.role ?? "unknown"}  ${ready ? "ready" : "not ready"}`;
      if (!ready) healthy = false;
    } else if (pid !== undefined && !(await s.ready().catch(() => false))) {
      state += "  not ready";
      healthy = false;
    }
    if (pid === undefined) healthy = false;
    lines.push(`${s.name.padEnd(10)} ${s.endpoint.padEnd(44)} ${state}`);
  }
  return { lines, healthy };
}
