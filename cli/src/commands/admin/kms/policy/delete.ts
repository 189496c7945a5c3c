import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms policy delete ALIAS NAME`. */
export class AdminKmsPolicyDeleteCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "delete"], ["admin", "kms", "policy", "rm"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "delete a KMS policy",
    examples: [
      ["Delete a policy.", "$0 admin kms policy delete mykms app"],
      ["The same, with the short name.", "$0 admin kms policy rm mykms app-copy"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    await this.withKms(ctx, aliasName, `Failed to delete policy \`${name}\`.`, ({ client }) => client.call("DELETE", `/v1/policy/delete/${seg(name)}`));
    ctx.output.result({ status: "success", policy: name }, `Deleted policy \`${name}\` successfully`);
    return 0;
  }
}
