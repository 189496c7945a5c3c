import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpList } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap list ALIAS` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapListCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "list"], ["idp", "ldap", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list LDAP IDP server configuration(s)",
    examples: [
      ["List the LDAP configurations.", "$0 idp ldap list myminio"],
      ["List them as JSON.", "$0 idp ldap ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpList(ctx, "ldap", this.args);
  }
}
