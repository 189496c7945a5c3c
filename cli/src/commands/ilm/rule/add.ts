import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle } from "../../../storage/s3/bucket/lifecycle.js";
import { putLifecycleChecked } from "../../../storage/s3/bucket/lifecycle-size.js";
import { applyRuleFlags, newRuleId } from "../../../storage/s3/bucket/lifecycle-rule.js";
import { bucketTarget } from "../../../storage/s3/target.js";
import { IlmRuleFlagsCommand } from "../../../helpers/ilm-rule-flags.js";

export class IlmRuleAddCommand extends IlmRuleFlagsCommand {
  static override paths = [["ilm", "rule", "add"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "add a lifecycle rule to a bucket",
    examples: [
      ["Expire objects under logs/ after 30 days.", "$0 ilm rule add --prefix \"logs/\" --expire-days 30 myalias/mybucket"],
      ["Expire objects on a given date.", "$0 ilm rule add --expire-date \"2026-01-01\" myalias/mybucket"],
      ["Expire old versions 7 days after they stop being current.", "$0 ilm rule add --noncurrent-expire-days 7 myalias/mybucket"],
      ["Keep the 3 newest old versions and expire the others after 30 days.", "$0 ilm rule add --noncurrent-expire-days 30 --noncurrent-expire-newer 3 myalias/mybucket"],
      ["Remove delete markers that have no versions left.", "$0 ilm rule add --expire-delete-marker myalias/mybucket"],
      ["Move objects tagged as archive to a cold class after 60 days.", "$0 ilm rule add --tags \"kind=archive\" --transition-days 60 --storage-class GLACIER myalias/mybucket"],
      ["Move old versions to a cold class after 14 days.", "$0 ilm rule add --noncurrent-transition-days 14 --noncurrent-transition-storage-class GLACIER myalias/mybucket"],
      ["Expire only objects larger than 100 MiB, after 10 days.", "$0 ilm rule add --size-gt 100MiB --expire-days 10 myalias/mybucket"],
      ["Expire small objects under tmp/ after a day.", "$0 ilm rule add --prefix \"tmp/\" --size-lt 1MiB --expire-days 1 myalias/mybucket"],
      ["Add a rule with your own ID, disabled for now.", "$0 ilm rule add --id cleanup-tmp --prefix \"tmp/\" --expire-days 1 --disable myalias/mybucket"],
    ],
  });
  id = Option.String("--id", { description: "rule ID (default: generated)" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule add needs one TARGET (alias/bucket).");
    const target = bucketTarget(ctx, this.args[0], "ilm rule add");
    const id = this.id ?? newRuleId();
    if (id === "" || id.length > 255) throw usageError("--id must be 1 to 255 characters.");
    const rule = applyRuleFlags({ ID: id }, this.ruleFlags());
    try {
      const config = await getLifecycle(target.client, target.bucket);
      if (config.Rules.some((r) => r["ID"] === id)) throw usageError(`a rule with ID \`${id}\` already exists on \`${target.url}\`; use \`ilm rule edit\`.`);
      await putLifecycleChecked(target.client, target.bucket, config, { Rules: [...config.Rules, rule] }, id);
    } catch (err) {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to add the lifecycle rule to \`${target.url}\`.`, err);
    }
    ctx.output.result({ status: "success", target: target.url, id }, `Lifecycle configuration rule added with ID \`${id}\` to ${target.url}.`);
  }
}
