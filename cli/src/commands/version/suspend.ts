import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { setVersioning } from "../../helpers/version-set.js";

export class VersionSuspendCommand extends BaseCommand {
  static override paths = [["version", "suspend"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "suspend bucket versioning",
    examples: [
      ["Suspend versioning (existing versions are kept).", "$0 version suspend myalias/mybucket"],
      ["Suspend it and print the result as JSON.", "$0 version suspend --json myalias/mybucket"],
    ],
  });
  target = Option.String({ name: "ALIAS/BUCKET", required: false });

  async run(ctx: McContext): Promise<void> {
    await setVersioning(ctx, this.target, "suspend");
  }
}
