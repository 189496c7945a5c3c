import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { readTags, tagListText } from "../../storage/s3/versions/versions-tags.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class TagListCommand extends BaseCommand {
  static override paths = [["tag", "list"]];
  static override usage = Command.Usage({ category: "Object commands", description: "list the tags of a bucket or an object", examples: [["List an object's tags", "$0 tag list myminio/mybucket/file.txt"]] });
  versionId = Option.String("--version-id,--vid", { description: "list the tags of a specific object version" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "tag list");
    let tags: Record<string, string>;
    try {
      tags = await readTags(t, this.versionId);
    } catch (err) {
      throw featureError(`fetch tags for \`${t.url}\``, t.key === "" ? "bucket tagging" : "object tagging", err);
    }
    const json: Record<string, unknown> = Object.keys(tags).length ? { tagset: tags } : {};
    Object.assign(json, { status: "success", url: t.url, versionID: this.versionId ?? "" });
    ctx.output.result(json, tagListText(t.url, this.versionId ?? "", tags));
  }
}
