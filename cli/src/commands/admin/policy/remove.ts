import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyRemove } from "../../../minio-admin/policy-run.js";

/** `mc admin policy remove` (upstream cmd/admin-policy-remove.go). */
export class AdminPolicyRemoveCommand extends BaseCommand {
  static override paths = [["admin", "policy", "remove"], ["admin", "policy", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove an IAM policy",
    examples: [
      ["Remove a policy.", "$0 admin policy remove myminio read-photos"],
      ["The same, with the short name.", "$0 admin policy rm myminio old-policy"],
    ],
  });
  args = Option.Rest({ name: "ALIAS POLICYNAME" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyRemove(ctx, this.args);
  }
}
