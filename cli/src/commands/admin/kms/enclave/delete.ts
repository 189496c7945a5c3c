import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms enclave delete ALIAS NAME` (root only): its keys, policies and identities go with it. */
export class AdminKmsEnclaveDeleteCommand extends KmsCommand {
  static override paths = [["admin", "kms", "enclave", "delete"], ["admin", "kms", "enclave", "rm"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "delete a KMS enclave with everything in it",
    examples: [
      ["Delete an enclave with its keys, policies and identities (as root).", "$0 admin kms enclave delete mykms tenant-1"],
      ["The same, with the short name.", "$0 admin kms enclave rm mykms tenant-2"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    await this.withKms(ctx, aliasName, `Failed to delete enclave \`${name}\`.`, ({ client }) => client.call("DELETE", `/v1/enclave/delete/${seg(name)}`));
    ctx.output.result({ status: "success", enclave: name }, `Deleted enclave \`${name}\` successfully`);
    return 0;
  }
}
