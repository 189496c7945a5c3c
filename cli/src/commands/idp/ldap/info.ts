import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpInfo } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap info ALIAS` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapInfoCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get LDAP IDP server configuration info",
    examples: [
      ["Show the LDAP configuration.", "$0 idp ldap info myminio"],
      ["Show it as JSON.", "$0 idp ldap info --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpInfo(ctx, "ldap", this.args);
  }
}
