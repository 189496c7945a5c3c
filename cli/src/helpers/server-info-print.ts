import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { objectStoreInfo } from "../storage/s3/server-info.js";

const count = (v: unknown, key: string): string => {
  const o = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return typeof o === "number" ? String(o) : "?";
};

/** `mc admin info ALIAS` for an object store; the cause of a failure says what to check. */
export async function printObjectStoreInfo(ctx: McContext, alias: ResolvedAlias): Promise<void> {
  const result = await objectStoreInfo(ctx.client(alias), alias.url).catch((err: unknown) => {
    throw mcError(`Unable to get service info of \`${alias.name}\` (${alias.url}).`, err, "unavailable");
  });
  if (ctx.output.json) {
    const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
    const value = { status: "success", info: result.kind === "s3" ? result.info : { mode: "minio", endpoint: alias.url, ...result.info } };
    ctx.output.stdout.write(`${tty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`);
    return;
  }
  if (result.kind === "minio") {
    const servers = Array.isArray(result.info["servers"]) ? result.info["servers"].length : 0;
    ctx.output.line([`●  ${alias.url}`, `   Mode: ${String(result.info["mode"] ?? "")}`, `   Servers: ${servers}`, `   Buckets: ${count(result.info["buckets"], "count")}`, `   Objects: ${count(result.info["objects"], "count")}`].join("\n"));
    return;
  }
  const i = result.info;
  ctx.output.line(
    [`●  ${i.endpoint}`, `   Server: ${i.server === "" ? "(no Server header)" : i.server}`, `   Region: ${i.region}`, `   Latency: ${i.latencyMs}ms`, `   Buckets: ${i.buckets}`].join("\n"),
  );
}
