import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { removeTags } from "../../storage/s3/versions/versions-tags.js";
import { s3Target, type S3Target } from "../../storage/s3/versions-target.js";
import { isTagWalk, walkTagTargets } from "../../helpers/tag-walk.js";

export class TagRemoveCommand extends BaseCommand {
  static override paths = [["tag", "remove"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "remove all tags of a bucket or an object",
    examples: [
      ["Remove an object's tags.", "$0 tag remove myalias/mybucket/report.pdf"],
      ["Remove a bucket's tags.", "$0 tag remove myalias/mybucket"],
      ["Remove the tags of one version.", "$0 tag remove --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/report.pdf"],
      ["Remove the tags of every object under a prefix.", "$0 tag remove --recursive myalias/mybucket/tmp/"],
      ["Remove the tags of every version under a prefix.", "$0 tag remove --recursive --versions myalias/mybucket/tmp/"],
    ],
  });
  versionId = Option.String("--version-id,--vid", { description: "remove the tags of a specific object version" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply to every object under the prefix" });
  versions = Option.Boolean("--versions", false, { description: "apply to every version" });
  rewind = Option.String("--rewind", { description: "apply to the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    const t = s3Target(ctx, this.target, "tag remove");
    const one = async (target: S3Target, versionId: string): Promise<void> => {
      try {
        await removeTags(target, versionId || undefined);
      } catch (err) {
        throw featureError(`remove tags for \`${target.url}\``, target.key === "" ? "bucket tagging" : "object tagging", err);
      }
      const version = versionId ? ` (${versionId})` : "";
      ctx.output.result({ status: "success", name: target.url, versionID: versionId }, `Tags removed for ${target.url}${version}.`);
    };
    if (!isTagWalk(this)) return one(t, this.versionId ?? "").then(() => 0);
    return walkTagTargets(ctx, t, this, "tag remove", "remove tags", one);
  }
}
