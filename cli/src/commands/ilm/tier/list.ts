import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { prettyRow } from "../../../minio-admin/replicate-common.js";
import { listTiers, tierCapability, tierFields } from "../../../minio-admin/tier.js";

/** `mc ilm tier list ALIAS` (upstream cmd/ilm-tier-list.go): upstream's `|` table, every column as wide as its widest cell plus two. */
export class IlmTierListCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "list"], ["ilm", "tier", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list configured remote tier targets",
    examples: [
      ["List the remote tiers.", "$0 ilm tier list myminio"],
      ["List them as JSON.", "$0 ilm tier ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1) throw usageError("ilm tier list needs an ALIAS.");
    if (this.args.length > 1) throw mcError("Incorrect number of arguments for tier-ls subcommand.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    const tiers = await listTiers(target.client).catch((err: unknown) => {
      throw adminFailure("Unable to list configured remote tier targets", tierCapability, err);
    });
    if (ctx.output.json) return ctx.output.printJson({ status: "success", tiers });
    if (tiers.length === 0) return ctx.output.line("No remote tier has been configured");
    const rows = [["Name", "Type", "Endpoint", "Bucket", "Prefix", "Region", "Storage-Class"]];
    for (const t of tiers) {
      const f = tierFields(t);
      rows.push([t.Name, t.Type, f.endpoint, f.bucket, f.prefix, f.region, f.storageClass]);
    }
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)) + 2) ?? [];
    ctx.output.line(rows.map((r) => `${prettyRow(widths, r, "|")}\n`).join(""));
  }
}
