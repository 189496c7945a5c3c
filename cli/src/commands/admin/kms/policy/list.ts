import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, listAll } from "../../../../kms/kms-command.js";

/** `mc admin kms policy list ALIAS [PATTERN]`. */
export class AdminKmsPolicyListCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "list"], ["admin", "kms", "policy", "ls"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "list KMS policies",
    examples: [
      ["List every policy.", "$0 admin kms policy list mykms"],
      ["List the policies whose names start with app.", "$0 admin kms policy list mykms \"app*\""],
    ],
  });
  args = Option.Rest({ name: "ALIAS [PATTERN]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, pattern = "*"] = this.positional(this.args, "ALIAS and an optional PATTERN", 1, 1);
    const names = await this.withKms(ctx, aliasName, "Failed to list policies.", (kms) => listAll(kms, "policy", pattern));
    for (const name of names) ctx.output.result({ status: "success", policy: name }, name);
    return 0;
  }
}
