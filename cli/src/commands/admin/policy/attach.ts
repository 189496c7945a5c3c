import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyAssociate } from "../../../minio-admin/policy-run.js";

/** `mc admin policy attach` (upstream cmd/admin-policy-attach.go). */
export class AdminPolicyAttachCommand extends BaseCommand {
  static override paths = [["admin", "policy", "attach"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "attach an IAM policy to a user or group", examples: [["Attach the \"readonly\" policy to user \"james\"", "$0 admin policy attach myminio readonly --user james"], ["Attach the \"audit-policy\" and \"acct-policy\" policies to group \"legal\"", "$0 admin policy attach myminio audit-policy acct-policy --group legal"]] });
  user = Option.String("-u,--user", { description: "attach policy to user" });
  group = Option.String("-g,--group", { description: "attach policy to group" });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyAssociate(ctx, true, this.args, this.user, this.group);
  }
}
