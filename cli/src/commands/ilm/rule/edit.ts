import { Command, Option } from "clipanion";
import { isAppError } from "@mc/shared/errors";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle } from "../../../storage/s3/bucket/lifecycle.js";
import { putLifecycleChecked } from "../../../storage/s3/bucket/lifecycle-size.js";
import { applyRuleFlags } from "../../../storage/s3/bucket/lifecycle-rule.js";
import { bucketTarget } from "../../../storage/s3/target.js";
import { IlmRuleFlagsCommand } from "../../../helpers/ilm-rule-flags.js";

export class IlmRuleEditCommand extends IlmRuleFlagsCommand {
  static override paths = [["ilm", "rule", "edit"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "change a lifecycle rule of a bucket",
    examples: [
      ["Expire after 60 days instead.", "$0 ilm rule edit --id cleanup-logs --expire-days 60 myalias/mybucket"],
      ["Disable a rule.", "$0 ilm rule edit --id cleanup-logs --disable myalias/mybucket"],
      ["Enable it again.", "$0 ilm rule edit --id cleanup-logs --enable myalias/mybucket"],
      ["Apply the rule to large objects only.", "$0 ilm rule edit --id cleanup-logs --size-gt 10MiB myalias/mybucket"],
      ["Change when old versions expire.", "$0 ilm rule edit --id versions --noncurrent-expire-days 14 myalias/mybucket"],
    ],
  });
  id = Option.String("--id", { description: "ID of the rule to change (required)" });
  enable = Option.Boolean("--enable", false, { description: "enable the rule (it is stored Enabled)" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule edit needs one TARGET (alias/bucket).");
    if (this.id === undefined || this.id === "") throw usageError("ilm rule edit needs --id RULE_ID.");
    if (this.enable && this.disable === true) throw usageError("use only one of --enable and --disable.");
    const target = bucketTarget(ctx, this.args[0], "ilm rule edit");
    const id = this.id;
    try {
      const config = await getLifecycle(target.client, target.bucket);
      const at = config.Rules.findIndex((r) => r["ID"] === id);
      const current = config.Rules[at];
      if (current === undefined) throw mcError(`No lifecycle rule with ID \`${id}\` on \`${target.url}\`.`, undefined, "not_found");
      const rules = [...config.Rules];
      rules[at] = applyRuleFlags(current, { ...this.ruleFlags(), ...(this.enable ? { disable: false } : {}) });
      await putLifecycleChecked(target.client, target.bucket, config, { Rules: rules }, id);
    } catch (err) {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to change the lifecycle rule of \`${target.url}\`.`, err);
    }
    ctx.output.result({ status: "success", target: target.url, id }, `Lifecycle configuration rule with ID \`${id}\` modified to ${target.url}.`);
  }
}
