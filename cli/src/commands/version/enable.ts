import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { setVersioning } from "../../helpers/version-set.js";

export class VersionEnableCommand extends BaseCommand {
  static override paths = [["version", "enable"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "enable bucket versioning",
    examples: [
      ["Turn versioning on for a bucket.", "$0 version enable myalias/mybucket"],
      ["Turn it on, but keep no versions of temporary prefixes and folder objects.", "$0 version enable --excluded-prefixes \"tmp/*,cache/*\" --exclude-folders myalias/mybucket"],
      ["Turn it on and print the result as JSON.", "$0 version enable --json myalias/mybucket"],
    ],
  });
  excludedPrefixes = Option.String("--excluded-prefixes", { description: "exclude versioning on these prefix patterns (MinIO only; comma separated)" });
  excludeFolders = Option.Boolean("--exclude-folders", { description: "exclude versioning on folder objects (MinIO only)" });
  target = Option.String({ name: "ALIAS/BUCKET", required: false });

  async run(ctx: McContext): Promise<void> {
    // MinIO's extension (upstream cmd/version-enable.go): a comma-separated list, split as is.
    const prefixes = this.excludedPrefixes === undefined || this.excludedPrefixes === "" ? [] : this.excludedPrefixes.split(",");
    await setVersioning(ctx, this.target, "enable", { prefixes, folders: this.excludeFolders === true });
  }
}
