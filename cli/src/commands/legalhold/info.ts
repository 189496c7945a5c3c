import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { getLegalHold } from "../../storage/s3/versions/versions-legalhold.js";
import { checkLockFlags } from "../../storage/s3/versions/versions-lock-flags.js";
import { printLegalHold } from "../../helpers/versions-lock-output.js";
import { s3Target } from "../../storage/s3/versions-target.js";
import { walkObjects } from "../../helpers/versions-walk.js";

export class LegalholdInfoCommand extends BaseCommand {
  static override paths = [["legalhold", "info"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "show legal hold of object(s)",
    examples: [
      ["Show whether an object is under legal hold.", "$0 legalhold info myalias/locked-bucket/evidence.zip"],
      ["Show it for every object under a prefix.", "$0 legalhold info --recursive myalias/locked-bucket/case-42/"],
      ["Show it for the versions current 30 days ago.", "$0 legalhold info --recursive --rewind 30d myalias/locked-bucket/case-42/"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "show legal hold recursively" });
  versionId = Option.String("--version-id,--vid", { description: "show legal hold of a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "show legal hold of all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    checkLockFlags("legalhold info", { isDefault: false, recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind });
    const t = s3Target(ctx, this.target, "legalhold info");
    // Keys are shown relative to the target's folder, as upstream does.
    const dir = t.key.slice(0, t.key.lastIndexOf("/") + 1);
    return walkObjects(ctx, t, { command: "legalhold info", recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind }, "show legal hold", async (item) => {
      let status: string;
      try {
        status = await getLegalHold(t.client, t.bucket, item.key, item.versionId || undefined);
      } catch (err) {
        throw featureError(`get legal hold of \`${item.url}\``, "object legal hold", err);
      }
      printLegalHold(ctx, item.url, item.key.slice(dir.length), item.versionId, status);
    });
  }
}
