import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { setVersioning } from "../../helpers/version-set.js";

export class VersionEnableCommand extends BaseCommand {
  static override paths = [["version", "enable"]];
  static override usage = Command.Usage({ category: "Bucket commands", description: "enable bucket versioning", examples: [["Enable versioning", "$0 version enable myminio/mybucket"]] });
  target = Option.String({ name: "ALIAS/BUCKET", required: false });

  async run(ctx: McContext): Promise<void> {
    await setVersioning(ctx, this.target, "enable");
  }
}
