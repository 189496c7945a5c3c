import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms policy assign|unassign ALIAS NAME IDENTITY…`: adds the policy to (removes it from) each identity. */
export class AdminKmsPolicyAssignCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "assign"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "assign a KMS policy to identities",
    details: "The identities must exist: create them with `mc admin kms identity create`.",
    examples: [
      ["Assign a policy to an identity.", "$0 admin kms policy assign mykms app h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
      ["Assign it to two identities.", "$0 admin kms policy assign mykms app h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o h1:Qm9ZsW3b8cP1kR7tY0uV2xN5aD6eF4gH9jK1lM3nO8p"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME IDENTITY..." });
  protected readonly assign: boolean = true;

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = "", ...identities] = this.positional(this.args, "ALIAS, NAME and at least one IDENTITY", 3, Number.MAX_SAFE_INTEGER);
    const verb = this.assign ? "assign" : "unassign";
    for (const identity of identities) {
      await this.withKms(ctx, aliasName, `Failed to ${verb} policy \`${name}\` ${this.assign ? "to" : "from"} \`${identity}\`.`, ({ client }) =>
        client.call("POST", `/v1/policy/${verb}/${seg(name)}`, { identity }),
      );
      ctx.output.result({ status: "success", policy: name, identity }, `Policy \`${name}\` ${verb}ed ${this.assign ? "to" : "from"} \`${identity}\``);
    }
    return 0;
  }
}
