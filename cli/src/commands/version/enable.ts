import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { setVersioning } from "../../helpers/version-set.js";

export class VersionEnableCommand extends BaseCommand {
  static override paths = [["version", "enable"]];
  static override usage = Command.Usage({ category: "Bucket commands", description: "enable bucket versioning", examples: [["Enable versioning", "$0 version enable myminio/mybucket"], ["Enable versioning on bucket \"mybucket\" while excluding versioning on a few select prefixes and all folders", "$0 version enable myminio/mybucket --excluded-prefixes \"app1/*/_temporary/,app2/*/_staging/\" --exclude-folders"]] });
  excludedPrefixes = Option.String("--excluded-prefixes", { description: "exclude versioning on these prefix patterns (MinIO only; comma separated)" });
  excludeFolders = Option.Boolean("--exclude-folders", { description: "exclude versioning on folder objects (MinIO only)" });
  target = Option.String({ name: "ALIAS/BUCKET", required: false });

  async run(ctx: McContext): Promise<void> {
    // MinIO's extension (upstream cmd/version-enable.go): a comma-separated list, split as is.
    const prefixes = this.excludedPrefixes === undefined || this.excludedPrefixes === "" ? [] : this.excludedPrefixes.split(",");
    await setVersioning(ctx, this.target, "enable", { prefixes, folders: this.excludeFolders === true });
  }
}
