import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpEnable } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap enable ALIAS` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapEnableCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable an LDAP IDP server configuration",
    examples: [
      ["Enable the LDAP configuration.", "$0 idp ldap enable myminio"],
      ["Enable it and print the result as JSON.", "$0 idp ldap enable --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpEnable(ctx, "ldap", this.args, true);
  }
}
