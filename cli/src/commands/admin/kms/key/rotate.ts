import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/**
 * `mc admin kms key rotate ALIAS KEY_NAME`: adds a version (`add_version`,
 * contracts/kms.md §4). New encryptions use it; older versions still decrypt.
 */
export class AdminKmsKeyRotateCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "rotate"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "add a new version to a KMS master key",
    examples: [
      ["Add a new version to a master key (older versions still decrypt).", "$0 admin kms key rotate mykms my-key"],
      ["Rotate a key of an enclave.", "$0 admin kms key rotate --enclave tenant-1 mykms app-key"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName = ""] = this.positional(this.args, "ALIAS and KEY_NAME", 2);
    const version = await this.withKms(ctx, aliasName, `Failed to rotate master key \`${keyName}\`.`, async ({ client }) => {
      await client.call("POST", `/v1/key/create/${seg(keyName)}`, { add_version: true });
      return (await client.call<{ version?: number }>("GET", `/v1/key/describe/${seg(keyName)}`)).version ?? 0;
    });
    ctx.output.result({ status: "success", keyId: keyName, version }, `Rotated master key \`${keyName}\` to version ${version}`);
    return 0;
  }
}
