import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { getNotifications } from "../../storage/s3/bucket/notification.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EventListCommand extends BaseCommand {
  static override paths = [["event", "list"], ["event", "ls"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "list the notifications of a bucket",
    examples: [
      ["List the notifications of a bucket.", "$0 event list myalias/mybucket"],
      ["List those of one ARN.", "$0 event list myalias/mybucket arn:aws:sns:us-east-1:123456789012:photos"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET [ARN]" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1 || this.args.length > 2) throw usageError("event list needs TARGET and optionally an ARN.");
    const [arg, arn] = this.args;
    const target = bucketTarget(ctx, arg, "event list");
    const entries = await getNotifications(target.client, target.bucket).catch((err: unknown) => {
      throw isAppError(err) ? err : mcError(`Unable to list the notifications of \`${target.url}\`.`, err);
    });
    for (const e of entries.filter((x) => arn === undefined || x.arn === arn)) {
      const filter = [e.prefix !== "" ? `prefix="${e.prefix}"` : "", e.suffix !== "" ? `suffix="${e.suffix}"` : ""].filter((s) => s !== "").join(", ");
      ctx.output.result(
        { status: "success", id: e.id, event: e.events, prefix: e.prefix, suffix: e.suffix, arn: e.arn },
        `${e.arn}   ${e.events.join(",")}${filter === "" ? "" : `   Filter: ${filter}`}`,
      );
    }
  }
}
