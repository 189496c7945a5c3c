import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { readTags, tagListText } from "../../storage/s3/versions/versions-tags.js";
import { s3Target, type S3Target } from "../../storage/s3/versions-target.js";
import { isTagWalk, walkTagTargets } from "../../helpers/tag-walk.js";

export class TagListCommand extends BaseCommand {
  static override paths = [["tag", "list"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "list the tags of a bucket or an object",
    examples: [
      ["List an object's tags.", "$0 tag list myalias/mybucket/report.pdf"],
      ["List a bucket's tags.", "$0 tag list myalias/mybucket"],
      ["List the tags of one version.", "$0 tag list --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/report.pdf"],
      ["List the tags of every object under a prefix, as JSON lines.", "$0 tag list --recursive --json myalias/mybucket/2025/"],
      ["List the tags of every version of an object.", "$0 tag list --versions myalias/mybucket/report.pdf"],
      ["List the tags an object had 7 days ago.", "$0 tag list --rewind 7d myalias/mybucket/report.pdf"],
    ],
  });
  versionId = Option.String("--version-id,--vid", { description: "list the tags of a specific object version" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply to every object under the prefix" });
  versions = Option.Boolean("--versions", false, { description: "apply to every version" });
  rewind = Option.String("--rewind", { description: "apply to the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    const t = s3Target(ctx, this.target, "tag list");
    if (!isTagWalk(this)) return this.listOne(ctx, t, this.versionId ?? "").then(() => 0);
    let first = true;
    return walkTagTargets(ctx, t, this, "tag list", "list tags", async (target, versionId) => {
      if (!first && !ctx.output.json) ctx.output.line("");
      first = false;
      await this.listOne(ctx, target, versionId);
    });
  }

  private async listOne(ctx: McContext, t: S3Target, versionId: string): Promise<void> {
    let tags: Record<string, string>;
    try {
      tags = await readTags(t, versionId || undefined);
    } catch (err) {
      throw featureError(`fetch tags for \`${t.url}\``, t.key === "" ? "bucket tagging" : "object tagging", err);
    }
    const json: Record<string, unknown> = Object.keys(tags).length ? { tagset: tags } : {};
    Object.assign(json, { status: "success", url: t.url, versionID: versionId });
    ctx.output.result(json, tagListText(t.url, versionId, tags));
  }
}
