import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, s3Code, usageError } from "../../core/errors.js";
import { getNotifications, kindOfArn, newNotificationId, parseEvents, putNotifications, type NotificationEntry } from "../../storage/s3/bucket/notification.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EventAddCommand extends BaseCommand {
  static override paths = [["event", "add"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "add a bucket notification",
    examples: [
      ["Notify an SNS topic of new .jpg objects.", "$0 event add myalias/mybucket arn:aws:sns:us-east-1:123456789012:photos --event put --suffix .jpg"],
      ["Notify a queue of removals under a prefix.", "$0 event add myalias/mybucket arn:aws:sqs:us-east-1:123456789012:audit --event delete --prefix logs/"],
      ["Add the notification unless the same one exists already.", "$0 event add --ignore-existing myalias/mybucket arn:aws:sns:us-east-1:123456789012:photos --event put"],
    ],
  });
  event = Option.String("--event", "put,delete,get", { description: "events to notify about: put, delete, get (comma separated)" });
  prefix = Option.String("--prefix", "", { description: "only objects whose key starts with this" });
  suffix = Option.String("--suffix", "", { description: "only objects whose key ends with this" });
  ignoreExisting = Option.Boolean("-p,--ignore-existing", false, { description: "succeed when the same notification exists" });
  args = Option.Rest({ name: "ALIAS/BUCKET ARN" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("event add needs TARGET and ARN.");
    const [arg, arn = ""] = this.args;
    const target = bucketTarget(ctx, arg, "event add");
    const entry: NotificationEntry = { kind: kindOfArn(arn), id: newNotificationId(), arn, events: parseEvents(this.event), prefix: this.prefix, suffix: this.suffix };
    try {
      const existing = await getNotifications(target.client, target.bucket);
      const same = existing.find((e) => e.arn === arn && e.prefix === entry.prefix && e.suffix === entry.suffix && e.events.some((ev) => entry.events.includes(ev)));
      if (same) {
        if (this.ignoreExisting) {
          ctx.output.result({ status: "success", bucket: target.url, arn }, `Successfully added ${arn}`);
          return;
        }
        throw mcError(`A notification for \`${arn}\` with the same events and filter already exists on \`${target.url}\`.`, undefined, "already_exists");
      }
      await putNotifications(target.client, target.bucket, [...existing, entry]);
    } catch (err) {
      if (isAppError(err)) throw err;
      // Ceph RGW answers an unknown topic with NoSuchKey.
      if (s3Code(err) === "NoSuchKey") throw mcError(`Unable to add the notification to \`${target.url}\`: the server has no target with ARN \`${arn}\`.`, new Error(`Server error code: NoSuchKey`), "not_found");
      // Not every server has every event type (Ceph has no s3:ObjectAccessed): say which were asked for.
      if (s3Code(err) === "InvalidArgument") throw mcError(`Unable to add the notification to \`${target.url}\`: the server refused it for the events ${entry.events.join(", ")}.`, err);
      throw mcError(`Unable to add the notification to \`${target.url}\`.`, err);
    }
    ctx.output.result({ status: "success", bucket: target.url, arn, id: entry.id, event: entry.events, prefix: entry.prefix, suffix: entry.suffix }, `Successfully added ${arn}`);
  }
}
