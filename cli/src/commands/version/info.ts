import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { requireBucketOnly, s3Target } from "../../storage/s3/versions-target.js";
import { printVersioning } from "../../helpers/version-set.js";

export class VersionInfoCommand extends BaseCommand {
  static override paths = [["version", "info"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "show bucket versioning status",
    examples: [
      ["Show whether versioning is on.", "$0 version info myalias/mybucket"],
      ["Show it as JSON, for a script.", "$0 version info --json myalias/mybucket"],
    ],
  });
  target = Option.String({ name: "ALIAS/BUCKET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "version info");
    requireBucketOnly(t, "version info");
    let cfg: unknown;
    try {
      cfg = await t.client.getBucketVersioning(t.bucket);
    } catch (err) {
      throw featureError(`get versioning of \`${t.url}\``, "bucket versioning", err);
    }
    // The SDK gives "" for a never-versioned bucket, else {Status, MfaDelete|MFADelete}.
    const c = typeof cfg === "object" && cfg !== null ? (cfg as Record<string, unknown>) : {};
    const str = (v: unknown): string => (typeof v === "string" ? v : "");
    printVersioning(ctx, "info", t.url, str(c["Status"]), str(c["MFADelete"]));
  }
}
