import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp ldap add ALIAS [CFG_PARAMS...]` (upstream cmd/idp-ldap-subcommands.go). */
export class IdpLdapAddCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add LDAP IDP server configuration",
    examples: [
      ["Configure an LDAP server.", "$0 idp ldap add myminio server_addr=ldap.example.net:636 lookup_bind_dn=\"cn=minio,dc=example,dc=net\" lookup_bind_password=LOOKUPSECRET user_dn_search_base_dn=\"ou=people,dc=example,dc=net\" user_dn_search_filter=\"(uid=%s)\""],
      ["Configure one with group lookups too.", "$0 idp ldap add myminio server_addr=ldap.example.net:636 lookup_bind_dn=\"cn=minio,dc=example,dc=net\" lookup_bind_password=LOOKUPSECRET user_dn_search_base_dn=\"ou=people,dc=example,dc=net\" user_dn_search_filter=\"(uid=%s)\" group_search_base_dn=\"ou=groups,dc=example,dc=net\" group_search_filter=\"(&(objectclass=groupOfNames)(member=%d))\""],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_PARAMS...]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "ldap", this.args, false);
  }
}
