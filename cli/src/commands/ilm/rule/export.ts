import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle } from "../../../storage/s3/bucket/lifecycle.js";
import { bucketTarget } from "../../../storage/s3/target.js";

export class IlmRuleExportCommand extends BaseCommand {
  static override paths = [["ilm", "rule", "export"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "print a bucket's lifecycle configuration as JSON",
    examples: [
      ["Print a bucket's lifecycle configuration.", "$0 ilm rule export myalias/mybucket"],
      ["Save it to a file.", "$0 ilm rule export myalias/mybucket > lifecycle.json"],
      ["Copy the rules of one bucket to another.", "$0 ilm rule export myalias/mybucket | $0 ilm rule import myalias/otherbucket"],
    ],
  });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule export needs one TARGET (alias/bucket).");
    const target = bucketTarget(ctx, this.args[0], "ilm rule export");
    const config = await getLifecycle(target.client, target.bucket).catch((err: unknown) => {
      throw isAppError(err) ? err : mcError(`Unable to get the lifecycle configuration of \`${target.url}\`.`, err);
    });
    if (config.Rules.length === 0) {
      throw mcError(`Unable to export the lifecycle configuration of \`${target.url}\`.`, Object.assign(new Error("The lifecycle configuration does not exist"), { code: "NoSuchLifecycleConfiguration", message: "The lifecycle configuration does not exist" }), "not_found");
    }
    // The document itself, so `export > f && import < f` round-trips (upstream prints it the same way).
    ctx.output.line(JSON.stringify(config, null, 1));
  }
}
