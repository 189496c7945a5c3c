import type { AdminClient } from "./admin-client.js";

/**
 * MinIO's server configuration through the admin API: GET get-config-kv
 * (answer encrypted) and help-config-kv, parsed as madmin's
 * ParseServerConfigOutput reads them: `subsys[:target] k=v k2="v w"` lines,
 * `# MINIO_SUBSYS_KEY=value` lines for values set by the environment (they
 * win), other comment lines ignored.
 */
export interface SubsysConfig {
  readonly subSystem: string;
  /** "" for the default target. */
  readonly target: string;
  readonly values: ReadonlyMap<string, string>;
}

/** madmin `GetConfigKV`: GET /get-config-kv?key=K, the answer decrypted. */
export async function getConfigKV(client: AdminClient, key: string): Promise<string> {
  const res = await client.request({ method: "GET", path: "/get-config-kv", query: { key } });
  return Buffer.from(await client.decrypt(res.body)).toString("utf8");
}

/** madmin `HelpConfigKV(ctx, "", "", false)`: the server's configuration sub-systems. */
export async function configSubsystems(client: AdminClient): Promise<string[]> {
  const help = await client.json<{ keysHelp?: { key?: unknown }[] | null }>({ method: "GET", path: "/help-config-kv", query: { subSys: "", key: "" } });
  return (help.keysHelp ?? []).map((k) => (typeof k.key === "string" ? k.key : "")).filter((k) => k !== "");
}

function parseLine(line: string): { subSystem: string; target: string; values: Map<string, string> } {
  const space = line.indexOf(" ");
  const head = space < 0 ? line : line.slice(0, space);
  const colon = head.indexOf(":");
  const values = new Map<string, string>();
  let text = space < 0 ? "" : line.slice(space + 1).trim();
  while (text.length > 0) {
    const eq = text.indexOf("=");
    const key = (eq < 0 ? text : text.slice(0, eq)).trim();
    if (eq < 0 || key === "") throw new Error(`invalid configuration line \`${line}\``);
    text = text.slice(eq + 1);
    let value: string;
    if (text.startsWith('"')) {
      const close = text.indexOf('"', 1);
      if (close < 0) throw new Error(`invalid configuration line \`${line}\``);
      value = text.slice(1, close);
      text = text.slice(close + 1).trim();
    } else {
      const sp = text.indexOf(" ");
      value = sp < 0 ? text : text.slice(0, sp);
      text = sp < 0 ? "" : text.slice(sp + 1).trim();
    }
    values.set(key, value);
  }
  return { subSystem: colon < 0 ? head : head.slice(0, colon), target: colon < 0 ? "" : head.slice(colon + 1), values };
}

/** The configuration text of get-config-kv as one entry per sub-system and target. */
export function parseServerConfig(text: string): SubsysConfig[] {
  const out: SubsysConfig[] = [];
  let env: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("# MINIO_")) {
      env.push(line.slice(2));
      continue;
    }
    if (line.startsWith("#")) continue;
    const entry = parseLine(line);
    const prefix = `MINIO_${entry.subSystem.toUpperCase()}_`;
    const suffix = entry.target === "" ? "" : `_${entry.target.toUpperCase()}`;
    for (const e of env) {
      const eq = e.indexOf("=");
      const name = eq < 0 ? e : e.slice(0, eq);
      if (!name.startsWith(prefix) || (suffix !== "" && !name.endsWith(suffix))) continue;
      entry.values.set(name.slice(prefix.length, name.length - suffix.length).toLowerCase(), eq < 0 ? "" : e.slice(eq + 1));
    }
    env = [];
    out.push(entry);
  }
  return out;
}
