import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { parseTags, writeTags } from "../../storage/s3/versions/versions-tags.js";
import { s3Target, type S3Target } from "../../storage/s3/versions-target.js";
import { isTagWalk, walkTagTargets } from "../../helpers/tag-walk.js";

export class TagSetCommand extends BaseCommand {
  static override paths = [["tag", "set"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "set tags on a bucket or an object (replacing its tags)",
    examples: [
      ["Tag an object (its old tags are replaced).", "$0 tag set myalias/mybucket/report.pdf \"project=apollo&owner=alice\""],
      ["Tag a bucket.", "$0 tag set myalias/mybucket \"cost-center=1234\""],
      ["Tag one version of an object.", "$0 tag set --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/report.pdf \"state=approved\""],
      ["Tag every object under a prefix, but not the folder objects.", "$0 tag set --recursive --exclude-folders myalias/mybucket/2025/ \"year=2025\""],
      ["Tag every version of every object under a prefix.", "$0 tag set --recursive --versions myalias/mybucket/legal/ \"hold=yes\""],
      ["Tag the versions that were current a day ago.", "$0 tag set --recursive --rewind 1d myalias/mybucket/config/ \"state=known-good\""],
    ],
  });
  versionId = Option.String("--version-id,--vid", { description: "tag a specific object version" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply to every object under the prefix" });
  versions = Option.Boolean("--versions", false, { description: "apply to every version" });
  rewind = Option.String("--rewind", { description: "apply to the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  excludeFolders = Option.Boolean("--exclude-folders", false, { description: "with -r, leave folder objects (keys ending in /) untagged" });
  target = Option.String({ name: "TARGET", required: false });
  tags = Option.String({ name: "TAGS", required: false });

  async run(ctx: McContext): Promise<number> {
    if (this.tags === undefined) throw usageError('tag set needs TARGET and TAGS ("key1=value1&key2=value2").');
    const tags = parseTags(this.tags);
    const t = s3Target(ctx, this.target, "tag set");
    const one = async (target: S3Target, versionId: string): Promise<void> => {
      try {
        await writeTags(target, tags, versionId || undefined);
      } catch (err) {
        throw featureError(`set tags for \`${target.url}\``, target.key === "" ? "bucket tagging" : "object tagging", err);
      }
      const version = versionId ? ` (${versionId})` : "";
      ctx.output.result({ status: "success", name: target.url, versionID: versionId }, `Tags set for ${target.url}${version}.`);
    };
    if (!isTagWalk(this)) {
      if (this.excludeFolders) throw usageError("tag set: --exclude-folders needs --recursive.");
      return one(t, this.versionId ?? "").then(() => 0);
    }
    return walkTagTargets(ctx, t, this, "tag set", "set tags", one);
  }
}
