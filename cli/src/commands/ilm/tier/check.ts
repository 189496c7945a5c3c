import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { tierCapability, tierMessage, verifyTier } from "../../../minio-admin/tier.js";

/** `mc ilm tier check ALIAS NAME` (upstream cmd/ilm-tier-verify.go, madmin VerifyTier): the server checks it can reach the tier. */
export class IlmTierCheckCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "check"], ["ilm", "tier", "verify"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "test if remote tier configuration is valid",
    examples: [
      ["Check that the server can reach a tier.", "$0 ilm tier check myminio WARM"],
      ["Check it and print the result as JSON.", "$0 ilm tier check --json myminio COLD"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 2) throw usageError("ilm tier check needs ALIAS and NAME.");
    if (this.args.length > 2) throw mcError("Incorrect number of arguments for tier-check subcommand.", undefined, "invalid_argument");
    const name = this.args[1] ?? "";
    const target = adminTarget(ctx, this.args[0]);
    await verifyTier(target.client, name).catch((err: unknown) => {
      throw adminFailure(`Unable to verify remote tier target ${name}`, tierCapability, err);
    });
    ctx.output.result(tierMessage(name), `Remote tier connectivity check for ${name} was successful`);
  }
}
