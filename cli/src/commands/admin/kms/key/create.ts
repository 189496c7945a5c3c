import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms key create ALIAS KEY_NAME` (contracts/mc.md §7). */
export class AdminKmsKeyCreateCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "create"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "create a new KMS master key",
    examples: [
      ["Create a master key.", "$0 admin kms key create mykms my-key"],
      ["Create a master key in an enclave.", "$0 admin kms key create --enclave tenant-1 mykms app-key"],
      ["Create one and read its name back from JSON.", "$0 admin kms key create --json mykms backup-key | jq -r .keyId"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName = ""] = this.positional(this.args, "ALIAS and KEY_NAME", 2);
    await this.withKms(ctx, aliasName, `Failed to create master key \`${keyName}\`.`, ({ client }) => client.call("POST", `/v1/key/create/${seg(keyName)}`, {}));
    ctx.output.result({ status: "success", keyId: keyName }, `Created master key \`${keyName}\` successfully`);
    return 0;
  }
}
