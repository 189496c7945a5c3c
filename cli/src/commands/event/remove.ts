import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { getNotifications, kindOfArn, parseEvents, replaceNotifications } from "../../storage/s3/bucket/notification.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EventRemoveCommand extends BaseCommand {
  static override paths = [["event", "remove"], ["event", "rm"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "remove bucket notifications",
    examples: [
      ["Remove the notifications of one ARN.", "$0 event remove myalias/mybucket arn:aws:sns:us-east-1:123456789012:photos"],
      ["Remove only the put notifications of .jpg objects for that ARN.", "$0 event remove myalias/mybucket arn:aws:sns:us-east-1:123456789012:photos --event put --suffix .jpg"],
      ["Remove every notification of a bucket.", "$0 event remove --force myalias/mybucket"],
    ],
  });
  event = Option.String("--event", { description: "only notifications with these events (put, delete, get)" });
  prefix = Option.String("--prefix", { description: "only notifications with this prefix filter" });
  suffix = Option.String("--suffix", { description: "only notifications with this suffix filter" });
  force = Option.Boolean("--force", false, { description: "remove every notification when no ARN is given" });
  args = Option.Rest({ name: "ALIAS/BUCKET [ARN]" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1 || this.args.length > 2) throw usageError("event remove needs TARGET and optionally an ARN.");
    const [arg, arn] = this.args;
    if (arn === undefined && !this.force) throw usageError("removing every notification of a bucket needs --force (or name an ARN).");
    if (arn !== undefined) kindOfArn(arn);
    const events = this.event === undefined ? undefined : parseEvents(this.event);
    const target = bucketTarget(ctx, arg, "event remove");
    let removed = 0;
    try {
      const entries = await getNotifications(target.client, target.bucket);
      const matches = entries.filter(
        (e) =>
          (arn === undefined || e.arn === arn) &&
          (events === undefined || e.events.some((ev) => events.includes(ev))) &&
          (this.prefix === undefined || e.prefix === this.prefix) &&
          (this.suffix === undefined || e.suffix === this.suffix),
      );
      if (matches.length === 0) {
        if (arn === undefined) {
          ctx.output.result({ status: "success", bucket: target.url, removed: 0 }, `No notifications on \`${target.url}\`.`);
          return;
        }
        throw mcError(`No notification for \`${arn}\` on \`${target.url}\`.`, undefined, "not_found");
      }
      removed = matches.length;
      await replaceNotifications(target.client, target.bucket, entries.filter((e) => !matches.includes(e)), matches);
    } catch (err) {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to remove notifications of \`${target.url}\`.`, err);
    }
    const text = arn === undefined ? `Successfully removed all notifications of ${target.url}` : `Successfully removed ${arn}`;
    ctx.output.result({ status: "success", bucket: target.url, ...(arn === undefined ? {} : { arn }), removed }, text);
  }
}
