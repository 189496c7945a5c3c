import { Command, Option } from "clipanion";
import { BaseCommand } from "../../base-command.js";
import type { McContext } from "../../context.js";
import { mcError, usageError } from "../../errors.js";
import { kmsAlias, openKms } from "../../kms/kms-alias.js";

/** `mc admin kms key list ALIAS [PATTERN]`: every page of `/v1/key/list/<pattern>`. */
export class AdminKmsKeyListCommand extends BaseCommand {
  static override paths = [["admin", "kms", "key", "list"], ["admin", "kms", "key", "ls"]];
  static override usage = Command.Usage({ category: "Admin commands", description: "list KMS master keys", examples: [["List all keys", "$0 admin kms key list mykms"], ["List keys starting with my-", "$0 admin kms key list mykms 'my-*'"]] });
  args = Option.Rest({ name: "ALIAS [PATTERN]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, pattern = "*", ...rest] = this.args;
    if (rest.length > 0) throw usageError("admin kms key list takes ALIAS and an optional PATTERN.");
    const alias = kmsAlias(ctx, aliasName);
    const { client, isClientError } = await openKms(ctx, alias);
    const names: string[] = [];
    try {
      let continueAt = "";
      for (;;) {
        const page = await client.call<{ names?: string[]; continue_at?: string }>(
          "GET",
          `/v1/key/list/${encodeURIComponent(pattern)}${continueAt === "" ? "" : `?continue_at=${encodeURIComponent(continueAt)}`}`,
        );
        names.push(...(page.names ?? []));
        if (!page.continue_at || page.continue_at === continueAt) break;
        continueAt = page.continue_at;
      }
    } catch (err) {
      throw mcError(isClientError(err) ? "Failed to list master keys." : `Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    } finally {
      client.close();
    }
    for (const name of names) ctx.output.result({ status: "success", name }, name);
    return 0;
  }
}
