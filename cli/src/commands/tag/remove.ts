import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { removeTags } from "../../storage/s3/versions/versions-tags.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class TagRemoveCommand extends BaseCommand {
  static override paths = [["tag", "remove"]];
  static override usage = Command.Usage({ category: "Object commands", description: "remove all tags of a bucket or an object", examples: [["Remove a bucket's tags", "$0 tag remove myminio/mybucket"]] });
  versionId = Option.String("--version-id,--vid", { description: "remove the tags of a specific object version" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "tag remove");
    try {
      await removeTags(t, this.versionId);
    } catch (err) {
      throw featureError(`remove tags for \`${t.url}\``, t.key === "" ? "bucket tagging" : "object tagging", err);
    }
    const version = this.versionId ? ` (${this.versionId})` : "";
    ctx.output.result({ status: "success", name: t.url, versionID: this.versionId ?? "" }, `Tags removed for ${t.url}${version}.`);
  }
}
