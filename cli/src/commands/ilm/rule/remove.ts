import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle, putLifecycle } from "../../../storage/s3/bucket/lifecycle.js";
import { bucketTarget } from "../../../storage/s3/target.js";

export class IlmRuleRemoveCommand extends BaseCommand {
  static override paths = [["ilm", "rule", "remove"], ["ilm", "rule", "rm"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "remove lifecycle rules of a bucket",
    examples: [
      ["Remove one rule.", "$0 ilm rule remove --id cleanup-logs myalias/mybucket"],
      ["Remove every rule of a bucket.", "$0 ilm rule remove --all --force myalias/mybucket"],
    ],
  });
  id = Option.String("--id", { description: "ID of the rule to remove" });
  all = Option.Boolean("--all", false, { description: "remove every rule (needs --force)" });
  force = Option.Boolean("--force", false, { description: "allow --all" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule remove needs one TARGET (alias/bucket).");
    if ((this.id === undefined) === !this.all) throw usageError("ilm rule remove needs either --id RULE_ID or --all --force.");
    if (this.all && !this.force) throw usageError("removing every rule needs --force as well as --all.");
    const target = bucketTarget(ctx, this.args[0], "ilm rule remove");
    try {
      const config = await getLifecycle(target.client, target.bucket);
      const rules = this.all ? [] : config.Rules.filter((r) => r["ID"] !== this.id);
      if (!this.all && rules.length === config.Rules.length) throw mcError(`No lifecycle rule with ID \`${this.id ?? ""}\` on \`${target.url}\`.`, undefined, "not_found");
      await putLifecycle(target.client, target.bucket, { Rules: rules });
    } catch (err) {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to remove lifecycle rules of \`${target.url}\`.`, err);
    }
    const text = this.all ? `Rules for \`${target.url}\` removed.` : `Rule ID \`${this.id ?? ""}\` from target ${target.url} removed.`;
    ctx.output.result({ status: "success", target: target.url, ...(this.all ? { all: true } : { id: this.id }) }, text);
  }
}
