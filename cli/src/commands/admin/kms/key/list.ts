import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, listAll } from "../../../../kms/kms-command.js";

/** `mc admin kms key list ALIAS [PATTERN]`: every page of `/v1/key/list/<pattern>`. */
export class AdminKmsKeyListCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "list"], ["admin", "kms", "key", "ls"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "list KMS master keys",
    examples: [
      ["List every master key.", "$0 admin kms key list mykms"],
      ["List the keys whose names start with app-.", "$0 admin kms key list mykms \"app-*\""],
      ["List the keys of an enclave as JSON.", "$0 admin kms key list --json --enclave tenant-1 mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [PATTERN]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, pattern = "*"] = this.positional(this.args, "ALIAS and an optional PATTERN", 1, 1);
    const names = await this.withKms(ctx, aliasName, "Failed to list master keys.", (kms) => listAll(kms, "key", pattern));
    for (const name of names) ctx.output.result({ status: "success", name }, name);
    return 0;
  }
}
