import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import type { AdminClient } from "../minio-admin/admin-client.js";
import { adminFailure } from "../minio-admin/admin-errors.js";
import { nodeAlive } from "../minio-admin/health.js";

/** A node of the deployment as `admin info` lists it. */
export interface PingNode {
  readonly scheme: string;
  /** `host:port` */
  readonly host: string;
}

/**
 * The nodes `ping --distributed` (all) or `--node NAME` (the one whose
 * endpoint is NAME) pings, from madmin `ServerInfo` as upstream's
 * fetchAdminInfo/filterAdminInfo: a node without its own scheme uses the alias's.
 */
export async function pingNodes(client: AdminClient, arg: string, node: string | undefined): Promise<PingNode[]> {
  const info = await client.json<{ servers?: { endpoint?: string; scheme?: string }[] }>({ method: "GET", path: "/info" }).catch((err: unknown) => {
    throw adminFailure(`Unable to get server info of \`${arg}\``, "Pinging each node", err);
  });
  const scheme = new URL(client.alias.url).protocol.replace(":", "");
  const all = (info.servers ?? []).filter((s) => typeof s.endpoint === "string" && s.endpoint !== "").map((s) => ({ scheme: s.scheme || scheme, host: s.endpoint ?? "" }));
  if (node === undefined || all.length === 0) return all;
  const one = all.filter((s) => s.host === node);
  if (one.length === 0) throw mcError(`Node ${node} not exist.`, new Error(`the server lists ${all.map((s) => s.host).join(", ")}`), "invalid_argument");
  return one;
}

/** upstream trimToTwoDecimal: `1.23ms  `, `1.50s    ` (the unit padded so the columns line up). */
export function twoDecimals(ms: number): string {
  const [v, unit, width] = ms >= 1000 ? [(ms / 1000).toFixed(2), "s", 7] : [ms.toFixed(2), "ms", 6];
  return `${v}${unit.padEnd(unit.length + Math.max(0, width - v.length))}`;
}

export interface NodeResult {
  readonly node: PingNode;
  readonly online: boolean;
  readonly error?: string;
  readonly ms: number;
}

/** One round: madmin `Alive` on every node at once (an unsigned GET of /minio/health/live each). */
export function pingRound(client: AdminClient, nodes: readonly PingNode[]): Promise<NodeResult[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const started = performance.now();
      try {
        const online = await nodeAlive(client, `${node.scheme}://${node.host}`);
        return { node, online, ms: performance.now() - started };
      } catch (err) {
        return { node, online: false, error: err instanceof Error ? err.message : String(err), ms: performance.now() - started };
      }
    }),
  );
}

/** One round in real mc's shapes: a JSON record, or a line per node (tab-aligned as Go's tabwriter, padding 3). */
export function printRound(ctx: McContext, round: number, results: readonly NodeResult[]): void {
  const counter = String(round).padStart(3);
  const servers = results.map((r) => ({
    endpoint: { Scheme: r.node.scheme, Host: r.node.host, Path: "" },
    dns: "0s",
    status: r.online ? "ok " : "failed ",
    ...(r.error !== undefined ? { error: r.error } : {}),
    time: twoDecimals(r.ms),
  }));
  if (ctx.output.json) {
    ctx.output.result({ status: "success", counter, servers }, "");
    return;
  }
  const heads = results.map((r) => `${counter}: ${r.node.scheme}://${r.node.host}`);
  const width = Math.max(...heads.map((h) => h.length)) + 3;
  ctx.output.line(heads.map((h, i) => `${h.padEnd(width)}status=${servers[i]?.status ?? ""} time=${servers[i]?.time ?? ""}`).join("\n"));
}
