import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError } from "../../core/errors.js";
import { featureError, isNoLockSetting } from "../../storage/s3/versions/versions-errors.js";
import { checkLockFlags } from "../../storage/s3/versions/versions-lock-flags.js";
import { printBucketLock, printRetentionInfo } from "../../helpers/versions-lock-output.js";
import { getBucketLock, getRetention, type BucketLock } from "../../storage/s3/versions/versions-retention.js";
import { requireBucketOnly, s3Target } from "../../storage/s3/versions-target.js";
import { walkObjects } from "../../helpers/versions-walk.js";

export class RetentionInfoCommand extends BaseCommand {
  static override paths = [["retention", "info"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "show retention of object(s) or the bucket's default retention",
    examples: [
      ["Show an object's retention.", "$0 retention info myalias/locked-bucket/invoice.pdf"],
      ["Show a bucket's default retention.", "$0 retention info --default myalias/locked-bucket"],
      ["Show the retention of every object under a prefix.", "$0 retention info --recursive myalias/locked-bucket/2025/"],
      ["Show the retention of every version of an object.", "$0 retention info --versions myalias/locked-bucket/invoice.pdf"],
      ["Show the retention of the versions current 10 days ago.", "$0 retention info --recursive --rewind 10d myalias/locked-bucket/2025/"],
    ],
  });
  isDefault = Option.Boolean("--default", false, { description: "show the bucket's default retention" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "show retention recursively" });
  versionId = Option.String("--version-id,--vid", { description: "show retention of a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "show retention of all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    checkLockFlags("retention info", { isDefault: this.isDefault, recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind });
    const t = s3Target(ctx, this.target, "retention info");
    if (this.isDefault) {
      requireBucketOnly(t, "retention info --default");
      let lock: BucketLock;
      try {
        lock = await getBucketLock(t.client, t.bucket);
      } catch (err) {
        if (isNoLockSetting(err)) throw mcError(`Unable to get default retention of \`${t.url}\`: object lock is not enabled on this bucket (create it with \`mc mb --with-lock\`).`, err);
        throw featureError(`get default retention of \`${t.url}\``, "object lock", err);
      }
      printBucketLock(ctx, "info", t.url, lock);
      return 0;
    }
    return walkObjects(ctx, t, { command: "retention info", recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind }, "show retention", async (item) => {
      try {
        const r = await getRetention(t.client, t.bucket, item.key, item.versionId || undefined);
        printRetentionInfo(ctx, item.url, item.versionId, r.mode, r.until);
      } catch (err) {
        throw featureError(`get retention of \`${item.url}\``, "object retention", err);
      }
    });
  }
}
