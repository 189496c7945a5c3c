import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey enable ALIAS ACCESSKEY` (upstream cmd/idp-ldap-accesskey-enable.go). */
export class IdpLdapAccesskeyEnableCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable an access key",
    examples: [
      ["Enable an LDAP access key.", "$0 idp ldap accesskey enable myminio alice-ci"],
      ["Enable it and print the result as JSON.", "$0 idp ldap accesskey enable --json myminio alice-ci"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, true);
  }
}
