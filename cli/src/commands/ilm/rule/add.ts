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
      ["Expire objects under logs/ after 30 days", "$0 ilm rule add --prefix logs/ --expire-days 30 myminio/bucket"],
      ["Expire noncurrent versions after 7 days", "$0 ilm rule add --noncurrent-expire-days 7 myminio/bucket"],
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
