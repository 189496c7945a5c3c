/**
 * `mc license …` in air-gapped mode only: the registration token is made
 * from the cluster's own admin info and printed with SUBNET's offline
 * registration URL, for a person to open on a machine that has the internet;
 * mc itself never contacts SUBNET (nothing leaves for anywhere but the alias's
 * server).
 */
export const licenseCapability = "Cluster registration";

/** SUBNET's offline registration page (upstream `subnetOfflineRegisterURL`). */
export const subnetRegisterUrl = "https://subnet.min.io/cluster/register?token=";

interface Disk {
  readonly totalspace?: number;
  readonly usedspace?: number;
}

interface Server {
  readonly version?: string;
  readonly poolNumber?: number;
  readonly poolNumbers?: readonly number[];
  readonly drives?: readonly Disk[];
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
// Go's math.MaxInt: a server that belongs to no pool.
const noPool = 2 ** 63 - 1;

/**
 * upstream `GetClusterRegInfo` + `generateRegToken`: the registration info
 * as Go marshals it (field order, integers, `<>&` escaped), base64.
 */
export function registrationToken(info: Record<string, unknown>, clusterName: string): string {
  const goJson = JSON.stringify(registrationInfo(info, clusterName)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return Buffer.from(goJson, "utf8").toString("base64");
}

/** upstream `GetClusterRegInfo`: the cluster's registration info (the token's content, perf reports' cluster.info). */
export function registrationInfo(info: Record<string, unknown>, clusterName: string): Record<string, unknown> {
  const servers = (Array.isArray(info["servers"]) ? info["servers"] : []) as Server[];
  let pools = 1;
  let drives = 0;
  let total = 0;
  let used = 0;
  for (const s of servers) {
    const numbers = s.poolNumbers ?? [];
    for (const p of numbers) if (p > pools) pools = p;
    if (numbers.length === 0 && num(s.poolNumber) !== noPool && num(s.poolNumber) > pools) pools = num(s.poolNumber);
    drives += (s.drives ?? []).length;
    for (const d of s.drives ?? []) {
      total += num(d.totalspace);
      used += num(d.usedspace);
    }
  }
  const reg = {
    deployment_id: typeof info["deploymentID"] === "string" ? info["deploymentID"] : "",
    cluster_name: clusterName,
    used_capacity: num(obj(info["usage"])["size"]),
    info: {
      minio_version: servers[0]?.version ?? "",
      no_of_server_pools: pools,
      no_of_servers: servers.length,
      no_of_drives: drives,
      no_of_buckets: num(obj(info["buckets"])["count"]),
      no_of_objects: num(obj(info["objects"])["count"]),
      total_drive_space: total,
      used_drive_space: used,
    },
  };
  return reg;
}

/** upstream `getAGPLMessage`. */
export const agplMessage =
  "License: GNU AGPL v3 <https://www.gnu.org/licenses/agpl-3.0.txt>\nIf you are distributing or hosting MinIO along with your proprietary application as combined works, you may require a commercial license included in the Standard and Enterprise subscription plans. (https://min.io/signup?ref=mc)";
