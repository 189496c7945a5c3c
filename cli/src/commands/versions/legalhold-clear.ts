import { Command, Option } from "clipanion";
import { BaseCommand } from "../../base-command.js";
import type { McContext } from "../../context.js";
import { featureError } from "../../s3-features/versions-errors.js";
import { setLegalHold } from "../../s3-features/versions-legalhold.js";
import { checkLockFlags } from "../../s3-features/versions-lock-flags.js";
import { printLegalHoldChange } from "../../s3-features/versions-lock-output.js";
import { s3Target } from "../../s3-features/versions-target.js";
import { walkObjects } from "../../s3-features/versions-walk.js";

export class LegalHoldClearCommand extends BaseCommand {
  static override paths = [["legalhold", "clear"]];
  static override usage = Command.Usage({ category: "Object lock commands", description: "clear legal hold of object(s)", examples: [["Clear legal hold of object(s)", "$0 legalhold clear myminio/mybucket/file.txt"]] });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply recursively" });
  versionId = Option.String("--version-id,--vid", { description: "apply to a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "apply to all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    checkLockFlags("legalhold clear", { isDefault: false, recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind });
    const t = s3Target(ctx, this.target, "legalhold clear");
    return walkObjects(ctx, t, { command: "legalhold clear", recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind }, "clear legal hold", async (item) => {
      try {
        await setLegalHold(t.client, t.bucket, item.key, false, item.versionId || undefined);
      } catch (err) {
        throw featureError(`clear legal hold on \`${item.url}\``, "object legal hold", err);
      }
      printLegalHoldChange(ctx, "clear", item.url, item.versionId);
    });
  }
}
