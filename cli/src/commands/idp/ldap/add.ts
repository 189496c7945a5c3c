import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap add ALIAS [CFG_PARAMS...]` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapAddCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "add"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "add LDAP IDP server configuration", examples: [["Create LDAP IDP configuration", "$0 idp ldap add myminio/ server_addr=myldapserver:636 lookup_bind_dn=cn=admin,dc=min,dc=io lookup_bind_password=somesecret user_dn_search_base_dn=dc=min,dc=io user_dn_search_filter=\"(uid=%s)\""]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "ldap", this.args, false);
  }
}
