import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpRemove } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap remove ALIAS` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapRemoveCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "remove"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove LDAP IDP server configuration",
    examples: [
      ["Remove the LDAP configuration.", "$0 idp ldap remove myminio"],
      ["Remove it and print the result as JSON.", "$0 idp ldap remove --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpRemove(ctx, "ldap", this.args);
  }
}
