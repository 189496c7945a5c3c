import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms policy info ALIAS NAME`: `/v1/policy/describe/<name>` (who made it, when). */
export class AdminKmsPolicyInfoCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "info"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show when and by whom a KMS policy was created",
    examples: [
      ["Show when and by whom a policy was created.", "$0 admin kms policy info mykms app"],
      ["Show it as JSON.", "$0 admin kms policy info --json mykms app"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    const d = await this.withKms(ctx, aliasName, `Failed to describe policy \`${name}\`.`, ({ client }) =>
      client.call<{ name?: string; created_at?: string; created_by?: string }>("GET", `/v1/policy/describe/${seg(name)}`),
    );
    const value = { status: "success", policy: d.name ?? name, createdAt: d.created_at ?? "", createdBy: d.created_by ?? "" };
    this.fields(ctx, value, { Policy: value.policy, CreatedAt: value.createdAt, CreatedBy: value.createdBy });
    return 0;
  }
}
