import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { kmsAlias, openKms } from "../../kms/kms-alias.js";
import { printObjectStoreInfo } from "../../helpers/server-info-print.js";
import { runInfoOffline } from "../../minio-admin/info-offline.js";

interface KmsStatus {
  version?: string;
  uptime?: number;
  node_id?: string;
  leader_id?: string;
  role?: string;
  term?: number;
  nodes?: Record<string, string>;
  hsm?: { kind?: string; active?: boolean };
}

const duration = (s: number): string => {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return [d ? `${d}d` : "", h ? `${h}h` : "", m ? `${m}m` : "", `${s % 60}s`].join("");
};

/**
 * `mc admin info ALIAS` for a KMS alias: the node's `/v1/status`
 * (contracts/mc.md §5 shape, 4-space indent on a terminal). Object-store
 * aliases: MinIO's admin info, else what S3 calls tell (server-info-print.ts).
 */
export class AdminInfoCommand extends BaseCommand {
  static override paths = [["admin", "info"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "display server information (object stores and KMS aliases)",
    examples: [
      ["Show a MinIO server's status.", "$0 admin info myminio"],
      ["Show a KMS node's status.", "$0 admin info mykms"],
      ["Show it as JSON.", "$0 admin info --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });
  offline = Option.Boolean("--offline", false, { description: "show only offline nodes/drives (MinIO servers)" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, ...rest] = this.args;
    if (aliasName === undefined || rest.length > 0) throw usageError("admin info needs one ALIAS.");
    const resolved = ctx.aliases.get(aliasName.replace(/\/$/, ""));
    if (resolved !== undefined && resolved.apiKey === undefined && resolved.clientCert === undefined) {
      if (this.offline) await runInfoOffline(ctx, resolved);
      else await printObjectStoreInfo(ctx, resolved);
      return 0;
    }
    const alias = kmsAlias(ctx, aliasName);
    const { client, isClientError } = await openKms(ctx, alias);
    let status: KmsStatus;
    try {
      status = await client.call<KmsStatus>("GET", "/v1/status");
    } catch (err) {
      throw mcError(isClientError(err) ? `Unable to get the status of the KMS at \`${alias.url}\`.` : `Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    } finally {
      client.close();
    }
    const info = { mode: "kms", endpoint: alias.url, ...status };
    if (ctx.output.json) {
      const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
      const value = { status: "success", info };
      ctx.output.stdout.write(`${tty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`);
      return 0;
    }
    const nodes = Object.keys(status.nodes ?? {}).length;
    ctx.output.line(
      [
        `●  ${alias.url}`,
        `   Version: ${status.version ?? ""}`,
        `   Uptime: ${duration(status.uptime ?? 0)}`,
        `   Role: ${status.role ?? ""} (node ${status.node_id ?? ""}, leader ${status.leader_id ?? ""}, term ${status.term ?? 0})`,
        `   Nodes: ${nodes}`,
        `   HSM: ${status.hsm?.kind ?? ""} (${status.hsm?.active === true ? "active" : "inactive"})`,
      ].join("\n"),
    );
    return 0;
  }
}
