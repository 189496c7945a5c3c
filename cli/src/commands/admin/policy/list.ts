import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyList } from "../../../minio-admin/policy-run.js";

/** `mc admin policy list` (upstream cmd/admin-policy-list.go). */
export class AdminPolicyListCommand extends BaseCommand {
  static override paths = [["admin", "policy", "list"], ["admin", "policy", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list all IAM policies",
    examples: [
      ["List the policies.", "$0 admin policy list myminio"],
      ["List them as JSON.", "$0 admin policy ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyList(ctx, this.args);
  }
}
