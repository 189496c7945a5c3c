import type { AdminClient } from "./admin-client.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const topLocksCapability = "Listing the cluster's locks";
export const profileCapability = "Profiling the cluster";

/** madmin `LockEntry` as the server sends it (elapsed in nanoseconds). */
export interface LockEntry {
  readonly time: string;
  readonly elapsed?: number;
  readonly resource: string;
  readonly type: string;
  readonly source: string;
  readonly serverlist: readonly string[] | null;
  readonly owner: string;
  readonly id: string;
  readonly quorum: number;
}

/** madmin `TopLocksWithOpts`: GET /top/locks?count=N&stale=BOOL, plain JSON. */
export async function topLocks(client: AdminClient, count: number, stale: boolean): Promise<LockEntry[]> {
  const r = await client.json<LockEntry[] | null>({ method: "GET", path: "/top/locks", query: { count: String(count), stale: String(stale) } });
  return Array.isArray(r) ? r : [];
}

/** Go's `time.Duration.String` of a whole number of seconds. */
export function goSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
}

/** madmin `Profile`: POST /profile?profilerType=T&duration=Ns; the answer is a zip of the profiles. */
export async function profile(client: AdminClient, types: string, seconds: number): Promise<Buffer> {
  const res = await client.request({ method: "POST", path: "/profile", query: { profilerType: types, duration: goSeconds(seconds) } });
  return res.body;
}

export const profilerTypes = ["cpu", "mem", "block", "mutex", "trace", "threads", "goroutines", "cpuio", "runtime"] as const;

export const proxyCapability = "Setting the cluster's SUBNET proxy";

/** madmin `SetConfigKV`: PUT /set-config-kv with `subsys key=value` encrypted; true when a restart is needed. */
export async function setConfigKV(client: AdminClient, kv: string): Promise<boolean> {
  const res = await client.request({ method: "PUT", path: "/set-config-kv", body: new TextEncoder().encode(kv), encrypt: true });
  return res.headers["x-minio-config-applied"] !== "true";
}

/** madmin `DelConfigKV`: DELETE /del-config-kv with `subsys key` encrypted. */
export async function delConfigKV(client: AdminClient, k: string): Promise<boolean> {
  const res = await client.request({ method: "DELETE", path: "/del-config-kv", body: new TextEncoder().encode(k), encrypt: true });
  return res.headers["x-minio-config-applied"] !== "true";
}
