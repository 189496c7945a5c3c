import type { AdminClient } from "./admin-client.js";

/**
 * The server configuration calls of madmin-go (config-kv-commands.go,
 * config-help-commands.go, config-history-commands.go, config-commands.go).
 */
export const configCapability = "Server configuration";

const encoder = new TextEncoder();
const text = (b: Uint8Array): string => Buffer.from(b).toString("utf8");

export interface HelpKv {
  readonly key: string;
  readonly description: string;
  readonly optional: boolean;
  readonly type: string;
  readonly multipleTargets: boolean;
}

export interface Help {
  readonly subSys: string;
  readonly description: string;
  readonly multipleTargets: boolean;
  readonly keysHelp: readonly HelpKv[] | null;
}

/** GET /help-config-kv?subSys=S&key=K[&env=] (madmin `HelpConfigKV`), plain JSON. */
export function helpConfigKv(client: AdminClient, subSys: string, key: string, envOnly: boolean): Promise<Help> {
  return client.json<Help>({ method: "GET", path: "/help-config-kv", query: { subSys, key, ...(envOnly ? { env: "" } : {}) } });
}

/** GET /get-config-kv?key=K, answered encrypted (madmin `GetConfigKV`): the config text. */
export async function getConfigKv(client: AdminClient, key: string): Promise<string> {
  const res = await client.request({ method: "GET", path: "/get-config-kv", query: { key } });
  return text(await client.decrypt(res.body));
}

/** Whether the server asks for a restart: it did not apply the change live (header x-minio-config-applied). */
const needsRestart = (headers: Readonly<Record<string, string | string[] | undefined>>): boolean => headers["x-minio-config-applied"] !== "true";

/** PUT /set-config-kv with the `subsys k=v …` text encrypted (madmin `SetConfigKV`). */
export async function setConfigKv(client: AdminClient, kv: string): Promise<boolean> {
  const res = await client.request({ method: "PUT", path: "/set-config-kv", body: encoder.encode(kv), encrypt: true });
  return needsRestart(res.headers);
}

/** DELETE /del-config-kv with the key text encrypted (madmin `DelConfigKV`). */
export async function delConfigKv(client: AdminClient, key: string): Promise<boolean> {
  const res = await client.request({ method: "DELETE", path: "/del-config-kv", body: encoder.encode(key), encrypt: true });
  return needsRestart(res.headers);
}

export interface ConfigHistoryEntry {
  readonly restoreId: string;
  readonly createTime: string;
  readonly data: string;
}

/** GET /list-config-history-kv?count=N, answered encrypted (madmin `ListConfigHistoryKV`; 0 means 10). */
export async function listConfigHistory(client: AdminClient, count: number): Promise<ConfigHistoryEntry[]> {
  const res = await client.request({ method: "GET", path: "/list-config-history-kv", query: { count: String(count === 0 ? 10 : count) } });
  const v = JSON.parse(text(await client.decrypt(res.body))) as ConfigHistoryEntry[] | null;
  return v ?? [];
}

/** DELETE /clear-config-history-kv?restoreId=ID|all (madmin `ClearConfigHistoryKV`). */
export async function clearConfigHistory(client: AdminClient, restoreId: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/clear-config-history-kv", query: { restoreId } });
}

/** PUT /restore-config-history-kv?restoreId=ID (madmin `RestoreConfigHistoryKV`). */
export async function restoreConfigHistory(client: AdminClient, restoreId: string): Promise<void> {
  await client.request({ method: "PUT", path: "/restore-config-history-kv", query: { restoreId } });
}

/** GET /config, answered encrypted (madmin `GetConfig`): the whole configuration text. */
export async function getConfig(client: AdminClient): Promise<string> {
  const res = await client.request({ method: "GET", path: "/config" });
  return text(await client.decrypt(res.body));
}

/** madmin `SetConfig` reads at most 256 KiB: a longer input is refused before anything is sent. */
export const maxConfigSize = 256 * 1024;

/** PUT /config with the configuration text encrypted (madmin `SetConfig`). */
export async function setConfig(client: AdminClient, config: Uint8Array): Promise<void> {
  await client.request({ method: "PUT", path: "/config", body: config, encrypt: true });
}
