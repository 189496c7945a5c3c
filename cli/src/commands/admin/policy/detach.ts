import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyAssociate } from "../../../minio-admin/policy-run.js";

/** `mc admin policy detach` (upstream cmd/admin-policy-detach.go). */
export class AdminPolicyDetachCommand extends BaseCommand {
  static override paths = [["admin", "policy", "detach"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "detach an IAM policy from a user or group",
    examples: [
      ["Detach a policy from a user.", "$0 admin policy detach myminio read-photos --user alice"],
      ["Detach two policies from a group.", "$0 admin policy detach myminio read-photos write-uploads --group developers"],
    ],
  });
  user = Option.String("-u,--user", { description: "detach policy from user" });
  group = Option.String("-g,--group", { description: "detach policy from group" });
  args = Option.Rest({ name: "ALIAS POLICY [POLICY...]" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyAssociate(ctx, false, this.args, this.user, this.group);
  }
}
