import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { adminFailure } from "./admin-errors.js";
import { createAdminClient } from "./admin-client.js";

interface Drive {
  endpoint?: string;
  path?: string;
  state?: string;
}

interface Server {
  state?: string;
  endpoint?: string;
  drives?: Drive[] | null;
}

/**
 * `mc admin info ALIAS --offline` (upstream's flag: "show only offline
 * nodes/drives"): MinIO's admin info (madmin ServerInfo, GET /info) cut down
 * to the servers that are not online or have a drive that is not ok, each
 * with only those drives. It needs MinIO's admin API: there is no S3 fallback.
 */
export async function runInfoOffline(ctx: McContext, alias: ResolvedAlias): Promise<void> {
  const info = await createAdminClient(ctx, alias).json<Record<string, unknown>>({ method: "GET", path: "/info" }).catch((err: unknown) => {
    throw adminFailure(`Unable to get service info of \`${alias.name}\``, "Listing offline servers and drives", err);
  });
  const servers = (Array.isArray(info["servers"]) ? info["servers"] : []) as Server[];
  const bad = servers
    .map((s) => ({ ...s, drives: (s.drives ?? []).filter((d) => d.state !== "ok") }))
    .filter((s) => s.state !== "online" || s.drives.length > 0);
  if (ctx.output.json) {
    const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
    const value = { status: "success", info: { ...info, servers: bad } };
    ctx.output.stdout.write(`${tty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`);
    return;
  }
  if (bad.length === 0) {
    ctx.output.line("All servers and drives are online.");
    return;
  }
  const lines: string[] = [];
  for (const s of bad) {
    lines.push(`●  ${s.endpoint ?? ""}`);
    if (s.state !== "online") lines.push(`   Uptime: ${s.state ?? "offline"}`);
    for (const d of s.drives) lines.push(`   Drive: ${d.path || d.endpoint || "?"} ${d.state ?? "unknown"}`);
  }
  ctx.output.line(lines.join("\n"));
}
