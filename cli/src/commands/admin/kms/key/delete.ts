import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms key delete ALIAS KEY_NAME [--version N]`: the key with all versions, or one version. */
export class AdminKmsKeyDeleteCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "delete"], ["admin", "kms", "key", "rm"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "delete a KMS master key (or one of its versions)",
    details: "Data encrypted under a deleted key cannot be decrypted any more.",
    examples: [
      ["Delete a master key with all its versions.", "$0 admin kms key delete mykms my-key"],
      ["Delete only version 1 of a key.", "$0 admin kms key delete --version 1 mykms my-key"],
      ["Delete a key of an enclave, with the short name.", "$0 admin kms key rm --enclave tenant-1 mykms app-key"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });
  version = Option.String("--version", { description: "delete only this version" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName = ""] = this.positional(this.args, "ALIAS and KEY_NAME", 2);
    const query = this.version === undefined ? "" : `?version=${encodeURIComponent(this.version)}`;
    await this.withKms(ctx, aliasName, `Failed to delete master key \`${keyName}\`.`, ({ client }) => client.call("DELETE", `/v1/key/delete/${seg(keyName)}${query}`));
    const what = this.version === undefined ? `master key \`${keyName}\`` : `version ${this.version} of master key \`${keyName}\``;
    ctx.output.result({ status: "success", keyId: keyName, ...(this.version === undefined ? {} : { version: Number(this.version) }) }, `Deleted ${what} successfully`);
    return 0;
  }
}
