import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyCreate } from "../../../minio-admin/policy-run.js";

/** `mc admin policy create` (upstream cmd/admin-policy-create.go). */
export class AdminPolicyCreateCommand extends BaseCommand {
  static override paths = [["admin", "policy", "create"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "create a new IAM policy", examples: [["Create a new policy \"writeonly\" on MinIO, with policy from /tmp/writeonly.json", "$0 admin policy create myminio writeonly /tmp/writeonly.json"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyCreate(ctx, this.args);
  }
}
