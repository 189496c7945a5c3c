import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyCreate } from "../../../minio-admin/policy-run.js";

/** `mc admin policy create` (upstream cmd/admin-policy-create.go). */
export class AdminPolicyCreateCommand extends BaseCommand {
  static override paths = [["admin", "policy", "create"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "create a new IAM policy",
    examples: [
      ["Create a policy from a JSON file.", "$0 admin policy create myminio read-photos ./read-photos.json"],
      ["Replace the document of an existing policy.", "$0 admin policy create myminio read-photos ./read-photos-v2.json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS POLICYNAME POLICYFILE" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyCreate(ctx, this.args);
  }
}
