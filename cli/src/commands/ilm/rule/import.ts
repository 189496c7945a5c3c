import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { putLifecycle, validateLifecycle } from "../../../storage/s3/bucket/lifecycle.js";
import { readAll } from "../../../storage/s3/s3-request.js";
import { bucketTarget } from "../../../storage/s3/target.js";

export class IlmRuleImportCommand extends BaseCommand {
  static override paths = [["ilm", "rule", "import"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "set a bucket's lifecycle configuration from JSON on stdin",
    examples: [
      ["Set a bucket's lifecycle configuration from a file.", "$0 ilm rule import myalias/mybucket < lifecycle.json"],
      ["Copy the rules from a bucket on another server.", "$0 ilm rule export play/mybucket | $0 ilm rule import myalias/mybucket"],
    ],
  });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule import needs one TARGET (alias/bucket).");
    const target = bucketTarget(ctx, this.args[0], "ilm rule import");
    const input = (await readAll(this.context.stdin)).toString("utf8");
    if (input.trim() === "") throw usageError("ilm rule import reads the lifecycle JSON from stdin, and stdin is empty.");
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (err) {
      throw mcError("Invalid lifecycle configuration: stdin is not JSON.", err, "invalid_argument");
    }
    const config = validateLifecycle(parsed);
    try {
      await putLifecycle(target.client, target.bucket, config);
    } catch (err) {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to set the lifecycle configuration of \`${target.url}\`.`, err);
    }
    ctx.output.result({ status: "success", target: target.url, rules: config.Rules.length }, `Lifecycle configuration imported successfully to \`${target.url}\`.`);
  }
}
