import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyAssociate } from "../../../minio-admin/policy-run.js";

/** `mc admin policy attach` (upstream cmd/admin-policy-attach.go). */
export class AdminPolicyAttachCommand extends BaseCommand {
  static override paths = [["admin", "policy", "attach"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "attach an IAM policy to a user or group",
    examples: [
      ["Attach a policy to a user.", "$0 admin policy attach myminio read-photos --user alice"],
      ["Attach two policies to a group.", "$0 admin policy attach myminio read-photos write-uploads --group developers"],
    ],
  });
  user = Option.String("-u,--user", { description: "attach policy to user" });
  group = Option.String("-g,--group", { description: "attach policy to group" });
  args = Option.Rest({ name: "ALIAS POLICY [POLICY...]" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyAssociate(ctx, true, this.args, this.user, this.group);
  }
}
