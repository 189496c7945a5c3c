import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { boxTable } from "../../../minio-admin/box-table.js";
import { tierCapability, tierStats } from "../../../minio-admin/tier.js";
import { iBytes } from "../../../util/humanize.js";

const warmth = (type: string): string => (type === "internal" ? "hot" : "warm");

/**
 * `mc ilm tier info ALIAS [NAME]` (upstream cmd/ilm-tier-info.go): the
 * tier-stats API in upstream's bordered table. A failure is an error, exit 1
 * (upstream prints "No remote tiers configured" and exits 0 when the call fails).
 */
export class IlmTierInfoCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display tier statistics",
    examples: [
      ["Show statistics of every tier.", "$0 ilm tier info myminio"],
      ["Show statistics of one tier.", "$0 ilm tier info myminio WARM"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [NAME]" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1) throw usageError("ilm tier info needs an ALIAS.");
    if (this.args.length === 2 && ctx.output.json) throw mcError("Incorrect number of arguments for tier-info subcommand with json output.", undefined, "invalid_argument");
    if (this.args.length > 2) throw mcError("Incorrect number of arguments for tier-info subcommand.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    const infos = await tierStats(target.client).catch((err: unknown) => {
      throw adminFailure("Unable to get tier statistics", tierCapability, err);
    });
    if (ctx.output.json) {
      return ctx.output.printJson({ status: "success", ...(infos.length > 0 ? { tiers: infos.map((t) => ({ Name: t.Name, API: t.Type, Type: warmth(t.Type), Stats: t.Stats, DailyStats: t.DailyStats })) } : {}) });
    }
    const name = this.args[1] ?? "";
    const rows = infos.filter((t) => name === "" || t.Name === name).map((t) => [t.Name, t.Type, warmth(t.Type), iBytes(t.Stats.totalSize ?? 0), String(t.Stats.numObjects ?? 0), String(t.Stats.numVersions ?? 0)]);
    if (rows.length === 0) return ctx.output.line(name !== "" ? `No remote tiers' name match ${name}` : "No remote tiers configured");
    ctx.output.line(boxTable(["Tier Name", "API", "Type", "Usage", "Objects", "Versions"], rows, [3, 4, 5]));
  }
}
