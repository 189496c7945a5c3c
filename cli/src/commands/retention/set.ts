import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { checkLockFlags } from "../../storage/s3/versions/versions-lock-flags.js";
import { printBucketLock, printRetentionChange } from "../../helpers/versions-lock-output.js";
import { parseMode, parseValidity, putRetention, retainUntil, setBucketLock, validityText } from "../../storage/s3/versions/versions-retention.js";
import { requireBucketOnly, s3Target } from "../../storage/s3/versions-target.js";
import { walkObjects } from "../../helpers/versions-walk.js";

export class RetentionSetCommand extends BaseCommand {
  static override paths = [["retention", "set"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "set retention for object(s) or the bucket's default retention",
    examples: [
      ["Keep an object for 30 days in governance mode.", "$0 retention set governance 30d myalias/locked-bucket/invoice.pdf"],
      ["Keep every object under a prefix for 1 year in compliance mode.", "$0 retention set --recursive compliance 1y myalias/locked-bucket/2025/"],
      ["Set the bucket's default retention, for new objects without their own.", "$0 retention set --default governance 90d myalias/locked-bucket"],
      ["Set retention on one version.", "$0 retention set --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e governance 7d myalias/locked-bucket/invoice.pdf"],
      ["Set retention on every version under a prefix.", "$0 retention set --recursive --versions GOVERNANCE 60d myalias/locked-bucket/contracts/"],
      ["Shorten a governance retention (needs the bypass permission).", "$0 retention set --bypass governance 1d myalias/locked-bucket/invoice.pdf"],
    ],
  });
  isDefault = Option.Boolean("--default", false, { description: "set the bucket's default retention" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply retention recursively" });
  versionId = Option.String("--version-id,--vid", { description: "apply retention to a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "apply retention to all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  bypass = Option.Boolean("--bypass", false, { description: "bypass governance retention" });
  mode = Option.String({ name: "governance|compliance", required: false });
  validity = Option.String({ name: "VALIDITY", required: false });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    checkLockFlags("retention set", { isDefault: this.isDefault, recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind });
    if (this.target === undefined) throw usageError("retention set needs MODE, VALIDITY and TARGET, e.g. `retention set governance 30d ALIAS/BUCKET/OBJECT`.");
    const mode = parseMode(this.mode);
    const validity = parseValidity(this.validity);
    const t = s3Target(ctx, this.target, "retention set");
    if (this.isDefault) {
      requireBucketOnly(t, "retention set --default");
      try {
        await setBucketLock(t.client, t.bucket, { mode, validity });
      } catch (err) {
        throw featureError(`set default retention on \`${t.url}\``, "object lock", err);
      }
      printBucketLock(ctx, "set", t.url, { enabled: true, mode, validity: validityText(validity) });
      return 0;
    }
    const until = retainUntil(validity);
    return walkObjects(ctx, t, { command: "retention set", recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind }, "set retention", async (item) => {
      try {
        await putRetention(t.client, t.bucket, item.key, { mode, until, bypass: this.bypass, ...(item.versionId ? { versionId: item.versionId } : {}) });
      } catch (err) {
        throw featureError(`set retention on \`${item.url}\``, "object retention", err);
      }
      printRetentionChange(ctx, "set", item.url, item.versionId, mode, validityText(validity));
    });
  }
}
