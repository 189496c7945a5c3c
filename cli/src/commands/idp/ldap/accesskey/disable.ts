import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey disable ALIAS ACCESSKEY` (upstream cmd/idp-ldap-accesskey-disable.go). */
export class IdpLdapAccesskeyDisableCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable an access key",
    examples: [
      ["Disable an LDAP access key.", "$0 idp ldap accesskey disable myminio alice-ci"],
      ["Disable it and print the result as JSON.", "$0 idp ldap accesskey disable --json myminio alice-ci"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, false);
  }
}
