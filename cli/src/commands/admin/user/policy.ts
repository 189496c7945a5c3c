import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserPolicy } from "../../../minio-admin/user-policy-run.js";

/** `mc admin user policy ALIAS USERNAME` (upstream cmd/admin-user-policy.go). */
export class AdminUserPolicyCommand extends BaseCommand {
  static override paths = [["admin", "user", "policy"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "export user policies in JSON format",
    examples: [
      ["Display the policy document of a user \"foobar\" in JSON format", "$0 admin user policy myminio foobar"],
      ["Save the policy document of a user \"foobar\" to a file", "$0 admin user policy myminio foobar > foobar-policy.json"],
    ],
  });
  args = Option.Rest({ name: "TARGET USERNAME" });

  async run(ctx: McContext): Promise<void> {
    await runUserPolicy(ctx, this.args);
  }
}
