import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms enclave create ALIAS NAME` (root only). */
export class AdminKmsEnclaveCreateCommand extends KmsCommand {
  static override paths = [["admin", "kms", "enclave", "create"], ["admin", "kms", "enclave", "add"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "create a KMS enclave",
    examples: [
      ["Create an enclave for a tenant (as root).", "$0 admin kms enclave create mykms tenant-1"],
      ["Create it and print the result as JSON.", "$0 admin kms enclave create --json mykms tenant-2"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    await this.withKms(ctx, aliasName, `Failed to create enclave \`${name}\`.`, ({ client }) => client.call("POST", `/v1/enclave/create/${seg(name)}`, {}));
    ctx.output.result({ status: "success", enclave: name }, `Created enclave \`${name}\` successfully`);
    return 0;
  }
}
