import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { checkLockFlags } from "../../storage/s3/versions/versions-lock-flags.js";
import { printBucketLock, printRetentionChange } from "../../helpers/versions-lock-output.js";
import { clearRetention, setBucketLock } from "../../storage/s3/versions/versions-retention.js";
import { requireBucketOnly, s3Target } from "../../storage/s3/versions-target.js";
import { walkObjects } from "../../helpers/versions-walk.js";

export class RetentionClearCommand extends BaseCommand {
  static override paths = [["retention", "clear"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "clear retention of object(s) or the bucket's default retention",
    examples: [
      ["Clear an object's governance retention.", "$0 retention clear --bypass myalias/locked-bucket/invoice.pdf"],
      ["Clear it for every object under a prefix.", "$0 retention clear --recursive --bypass myalias/locked-bucket/tmp/"],
      ["Clear a bucket's default retention.", "$0 retention clear --default myalias/locked-bucket"],
      ["Clear it for one version.", "$0 retention clear --bypass --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/locked-bucket/invoice.pdf"],
    ],
  });
  isDefault = Option.Boolean("--default", false, { description: "clear the bucket's default retention" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "clear retention recursively" });
  versionId = Option.String("--version-id,--vid", { description: "clear retention of a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "clear retention of all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  bypass = Option.Boolean("--bypass", false, { description: "bypass governance retention" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    checkLockFlags("retention clear", { isDefault: this.isDefault, recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind });
    const t = s3Target(ctx, this.target, "retention clear");
    if (this.isDefault) {
      requireBucketOnly(t, "retention clear --default");
      try {
        await setBucketLock(t.client, t.bucket, undefined);
      } catch (err) {
        throw featureError(`clear default retention on \`${t.url}\``, "object lock", err);
      }
      printBucketLock(ctx, "clear", t.url, { enabled: true, mode: "", validity: "" });
      return 0;
    }
    return walkObjects(ctx, t, { command: "retention clear", recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind }, "clear retention", async (item) => {
      try {
        await clearRetention(t.client, t.bucket, item.key, { bypass: this.bypass, ...(item.versionId ? { versionId: item.versionId } : {}) });
      } catch (err) {
        throw featureError(`clear retention on \`${item.url}\``, "object retention", err);
      }
      printRetentionChange(ctx, "clear", item.url, item.versionId, "", "");
    });
  }
}
