import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpEnable } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap disable ALIAS` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapDisableCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Disable an LDAP IDP server configuration",
    examples: [
      ["Disable the LDAP configuration.", "$0 idp ldap disable myminio"],
      ["Disable it and print the result as JSON.", "$0 idp ldap disable --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpEnable(ctx, "ldap", this.args, false);
  }
}
