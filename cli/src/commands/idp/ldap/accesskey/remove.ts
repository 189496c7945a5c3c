import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyRemove } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey remove ALIAS ACCESSKEY` (upstream cmd/idp-ldap-accesskey-remove.go). */
export class IdpLdapAccesskeyRemoveCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "remove"], ["idp", "ldap", "accesskey", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "delete access key pairs for LDAP",
    examples: [
      ["Remove an LDAP access key.", "$0 idp ldap accesskey remove myminio alice-ci"],
      ["The same, with the short name.", "$0 idp ldap accesskey rm myminio alice-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyRemove(ctx, this.args);
  }
}
