import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { removeTier, tierCapability, tierMessage } from "../../../minio-admin/tier.js";

/** `mc ilm tier remove ALIAS NAME [--force]` (upstream cmd/ilm-tier-rm.go): only a tier no rule uses, unless forced. */
export class IlmTierRemoveCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "remove"], ["ilm", "tier", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove a remote tier target",
    examples: [
      ["Remove a tier no rule uses.", "$0 ilm tier remove myminio WARM"],
      ["The same, with the short name.", "$0 ilm tier rm myminio OLD-TIER"],
    ],
  });
  force = Option.Boolean("--force", { description: "forcefully remove the specified tier", hidden: true });
  dangerous = Option.Boolean("--dangerous", { description: "additional flag to be required in addition to force flag", hidden: true });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 2) throw usageError("ilm tier remove needs ALIAS and NAME.");
    if (this.args.length > 2) throw mcError("Incorrect number of arguments for tier remove command.", undefined, "invalid_argument");
    if (this.force === true && this.dangerous !== true) throw mcError("This operation results in an irreversible disconnection from the specified remote tier. If you are really sure, retry this command with ‘--force’ and ‘--dangerous’ flags.", undefined, "invalid_argument");
    const name = this.args[1] ?? "";
    if (name === "") throw mcError("Tier name can't be empty.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    await removeTier(target.client, name, this.force === true).catch((err: unknown) => {
      throw adminFailure("Unable to remove remote tier target", tierCapability, err);
    });
    ctx.output.result(tierMessage(name), `Removed remote tier ${name}`);
  }
}
