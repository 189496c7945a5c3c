import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyInfo } from "../../../minio-admin/policy-run.js";

/** `mc admin policy info` (upstream cmd/admin-policy-info.go). */
export class AdminPolicyInfoCommand extends BaseCommand {
  static override paths = [["admin", "policy", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show info on an IAM policy",
    examples: [
      ["Show a policy.", "$0 admin policy info myminio read-photos"],
      ["Save its document to a file.", "$0 admin policy info myminio read-photos --policy-file ./read-photos.json"],
    ],
  });
  policyFile = Option.String("-f,--policy-file", { description: "additionally (over-)write policy JSON to given file" });
  args = Option.Rest({ name: "ALIAS POLICYNAME" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyInfo(ctx, this.args, this.policyFile);
  }
}
