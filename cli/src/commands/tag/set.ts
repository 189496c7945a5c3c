import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { parseTags, writeTags } from "../../storage/s3/versions/versions-tags.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class TagSetCommand extends BaseCommand {
  static override paths = [["tag", "set"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "set tags on a bucket or an object (replacing its tags)",
    examples: [["Tag an object", '$0 tag set myminio/mybucket/file.txt "project=x&owner=me"']],
  });
  versionId = Option.String("--version-id,--vid", { description: "tag a specific object version" });
  target = Option.String({ name: "TARGET", required: false });
  tags = Option.String({ name: "TAGS", required: false });

  async run(ctx: McContext): Promise<void> {
    if (this.tags === undefined) throw usageError('tag set needs TARGET and TAGS ("key1=value1&key2=value2").');
    const tags = parseTags(this.tags);
    const t = s3Target(ctx, this.target, "tag set");
    try {
      await writeTags(t, tags, this.versionId);
    } catch (err) {
      throw featureError(`set tags for \`${t.url}\``, t.key === "" ? "bucket tagging" : "object tagging", err);
    }
    const version = this.versionId ? ` (${this.versionId})` : "";
    ctx.output.result({ status: "success", name: t.url, versionID: this.versionId ?? "" }, `Tags set for ${t.url}${version}.`);
  }
}
