import { Command, Option } from "clipanion";
import { BaseCommand } from "../../base-command.js";
import type { McContext } from "../../context.js";
import { mcError, usageError } from "../../errors.js";
import { kmsAlias, openKms } from "../../kms/kms-alias.js";

/** `mc admin kms key create ALIAS KEY_NAME` (contracts/mc.md §7). */
export class AdminKmsKeyCreateCommand extends BaseCommand {
  static override paths = [["admin", "kms", "key", "create"]];
  static override usage = Command.Usage({ category: "Admin commands", description: "create a new KMS master key", examples: [["Create key my-key", "$0 admin kms key create mykms my-key"]] });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName, ...rest] = this.args;
    if (keyName === undefined || keyName === "" || rest.length > 0) throw usageError("admin kms key create needs ALIAS and KEY_NAME.");
    const alias = kmsAlias(ctx, aliasName);
    const { client, isClientError } = await openKms(ctx, alias);
    try {
      await client.createKey(keyName);
    } catch (err) {
      throw mcError(isClientError(err) ? `Failed to create master key \`${keyName}\`.` : `Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    } finally {
      client.close();
    }
    ctx.output.result({ status: "success", keyId: keyName }, `Created master key \`${keyName}\` successfully`);
    return 0;
  }
}
