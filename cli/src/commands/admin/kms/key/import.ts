import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { readStdinText } from "../../../../core/stdin.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms key import ALIAS KEY_NAME [BASE64_KEY]`: `/v1/key/import/<name>` (version 1). */
export class AdminKmsKeyImportCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "import"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "import a 32-byte key (standard base64) as a KMS master key",
    details: "Without BASE64_KEY the key is read from standard input, which keeps it out of the process list and the shell history.",
    examples: [
      ["Import a 32-byte key from a file through standard input (it stays out of the process list).", "$0 admin kms key import mykms my-key < my-key.b64"],
      ["Import a key given on the command line.", "$0 admin kms key import mykms legacy-key \"B4C1sJb2pX9mYqL0tQ8nH3wZr6vE5kAaD7uFgS2iJ0o=\""],
      ["Import a key into an enclave.", "$0 admin kms key import --enclave tenant-1 mykms app-key < app-key.b64"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME [BASE64_KEY]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName = "", given] = this.positional(this.args, "ALIAS and KEY_NAME (the key on standard input, or as BASE64_KEY)", 2, 1);
    const key = (given ?? (await readStdinText())).trim();
    await this.withKms(ctx, aliasName, `Failed to import master key \`${keyName}\`.`, ({ client }) => client.call("POST", `/v1/key/import/${seg(keyName)}`, { key }));
    ctx.output.result({ status: "success", keyId: keyName }, `Imported master key \`${keyName}\` successfully`);
    return 0;
  }
}
