import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyInfo } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey info ALIAS ACCESSKEY [ACCESSKEY...]` (upstream cmd/idp-ldap-accesskey-info.go). */
export class IdpLdapAccesskeyInfoCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "info about given access key pairs for LDAP",
    examples: [
      ["Show an LDAP access key.", "$0 idp ldap accesskey info myminio alice-ci"],
      ["Show several.", "$0 idp ldap accesskey info myminio alice-ci alice-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY [ACCESSKEY...]" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyInfo(ctx, this.args);
  }
}
