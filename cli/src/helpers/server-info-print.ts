import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { adminFailure } from "../minio-admin/admin-errors.js";
import { createAdminClient } from "../minio-admin/admin-client.js";
import { minioServerInfo } from "../minio-admin/server-info.js";
import { s3ServerInfo } from "../storage/s3/server-info.js";
import { isAppError } from "@mc/shared/errors";
import { releaseTag } from "../core/version.js";
import { parseReleaseId } from "../update/release-id.js";
import { driftOf, serverReleaseOf } from "../update/version-drift.js";

const count = (v: unknown, key: string): string => {
  const o = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return typeof o === "number" ? String(o) : "?";
};

function printJson(ctx: McContext, info: unknown): void {
  const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
  const value = { status: "success", info };
  ctx.output.stdout.write(`${tty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`);
}

/**
 * `mc admin info ALIAS` for an object store: MinIO's admin info API (as
 * madmin's ServerInfo asks it) where the server has it, else what S3 calls
 * tell. The cause of a failure says what to check.
 */
export async function printObjectStoreInfo(ctx: McContext, alias: ResolvedAlias): Promise<void> {
  const failed = (err: unknown): never => {
    // MinIO's own refusal (access denied, …) in the admin errors' one line; anything else with the troubleshooting line.
    if (isAppError(err) && err.details["adminApi"] === "present") throw adminFailure(`Unable to get service info of \`${alias.name}\` (${alias.url})`, "Server info", err);
    throw mcError(`Unable to get service info of \`${alias.name}\` (${alias.url}).`, err, "unavailable");
  };
  const minio = await minioServerInfo(createAdminClient(ctx, alias)).catch(failed);
  if (minio !== undefined) {
    const servers: unknown[] = Array.isArray(minio["servers"]) ? minio["servers"] : [];
    const versionOf = (s: unknown): unknown => (typeof s === "object" && s !== null ? (s as Record<string, unknown>)["version"] : undefined);
    const server = servers.map((s) => serverReleaseOf(versionOf(s))).find((r) => r !== undefined);
    const client = parseReleaseId(releaseTag);
    const drift = client && server ? driftOf(client, server) : undefined;
    if (ctx.output.json) {
      printJson(ctx, minio);
      if (drift) ctx.output.printJson({ status: "warning", warning: drift });
      return;
    }
    ctx.output.line(
      [
        `●  ${alias.url}`,
        `   Mode: ${String(minio["mode"] ?? "")}`,
        `   Servers: ${servers.length}`,
        `   Buckets: ${count(minio["buckets"], "count")}`,
        `   Objects: ${count(minio["objects"], "count")}`,
        `   Server release: ${server?.id ?? "(not reported)"}`,
        `   mc release: ${releaseTag}`,
      ].join("\n"),
    );
    if (drift) ctx.output.warn(drift.message);
    return;
  }
  const i = await s3ServerInfo(ctx.client(alias), alias.url).catch(failed);
  if (ctx.output.json) return printJson(ctx, i);
  ctx.output.line(
    [`●  ${i.endpoint}`, `   Server: ${i.server === "" ? "(no Server header)" : i.server}`, `   Region: ${i.region}`, `   Latency: ${i.latencyMs}ms`, `   Buckets: ${i.buckets}`].join("\n"),
  );
}
