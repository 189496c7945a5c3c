import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, listAll } from "../../../../kms/kms-command.js";

/** `mc admin kms identity list ALIAS [PATTERN]`. */
export class AdminKmsIdentityListCommand extends KmsCommand {
  static override paths = [["admin", "kms", "identity", "list"], ["admin", "kms", "identity", "ls"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "list KMS identities",
    examples: [
      ["List every identity.", "$0 admin kms identity list mykms"],
      ["List the identities of an enclave as JSON.", "$0 admin kms identity list --json --enclave tenant-1 mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [PATTERN]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, pattern = "*"] = this.positional(this.args, "ALIAS and an optional PATTERN", 1, 1);
    const ids = await this.withKms(ctx, aliasName, "Failed to list identities.", (kms) => listAll(kms, "identity", pattern));
    for (const identity of ids) ctx.output.result({ status: "success", identity }, identity);
    return 0;
  }
}
