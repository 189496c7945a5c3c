import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyRemove } from "../../../minio-admin/policy-run.js";

/** `mc admin policy remove` (upstream cmd/admin-policy-remove.go). */
export class AdminPolicyRemoveCommand extends BaseCommand {
  static override paths = [["admin", "policy", "remove"], ["admin", "policy", "rm"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "remove an IAM policy", examples: [["Remove policy \"writeonly\" on MinIO", "$0 admin policy remove myminio writeonly"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyRemove(ctx, this.args);
  }
}
