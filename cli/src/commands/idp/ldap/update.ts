import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap update ALIAS [CFG_PARAMS...]` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapUpdateCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "update"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Update an LDAP IDP configuration",
    examples: [
      ["Change the lookup password.", "$0 idp ldap update myminio lookup_bind_password=NEWLOOKUPSECRET"],
      ["Point it at another server.", "$0 idp ldap update myminio server_addr=ldap2.example.net:636"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_PARAMS...]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "ldap", this.args, true);
  }
}
