import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { readShares } from "../../helpers/share-store.js";
import { expiryText } from "../../util/humanize.js";

export class ShareListCommand extends BaseCommand {
  static override paths = [["share", "list"]];
  static override usage = Command.Usage({
    category: "Share commands",
    description: "list previously shared objects",
    examples: [
      ["List the download links shared so far.", "$0 share list download"],
      ["List the upload commands shared so far.", "$0 share list upload"],
    ],
  });
  kind = Option.String({ name: "upload|download" });

  async run(ctx: McContext): Promise<void> {
    if (this.kind !== "upload" && this.kind !== "download") throw usageError("share list needs `upload` or `download`.");
    const shares = await readShares(ctx.config.dir, this.kind);
    const now = Date.now();
    for (const [share, rec] of Object.entries(shares)) {
      const left = Date.parse(rec.date) + rec.expiry / 1e6 - now;
      if (left <= 0) continue;
      ctx.output.result(
        { status: "success", url: rec.share, share, timeLeft: Math.round(left * 1e6), ...(rec.contentType ? { contentType: rec.contentType } : {}) },
        `URL: ${rec.share}\nExpire: ${expiryText(left)}\nShare: ${share}`,
      );
    }
  }
}
