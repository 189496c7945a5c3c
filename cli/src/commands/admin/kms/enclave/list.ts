import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, listAll } from "../../../../kms/kms-command.js";

/** `mc admin kms enclave list ALIAS [PATTERN]`. */
export class AdminKmsEnclaveListCommand extends KmsCommand {
  static override paths = [["admin", "kms", "enclave", "list"], ["admin", "kms", "enclave", "ls"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "list KMS enclaves",
    examples: [
      ["List every enclave.", "$0 admin kms enclave list mykms"],
      ["List the enclaves whose names start with tenant-.", "$0 admin kms enclave list mykms \"tenant-*\""],
    ],
  });
  args = Option.Rest({ name: "ALIAS [PATTERN]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, pattern = "*"] = this.positional(this.args, "ALIAS and an optional PATTERN", 1, 1);
    const names = await this.withKms(ctx, aliasName, "Failed to list enclaves.", (kms) => listAll(kms, "enclave", pattern));
    for (const name of names) ctx.output.result({ status: "success", enclave: name }, name);
    return 0;
  }
}
