import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runLdapPolicyEntities } from "../../../../minio-admin/ldap-policy-run.js";

/** `mc idp ldap policy entities ALIAS [--user U]… [--group G]… [--policy P]…` (upstream cmd/idp-ldap-policy-entities.go). */
export class IdpLdapPolicyEntitiesCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "policy", "entities"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list policy association entities",
    examples: [
      ["List every LDAP user and group with a policy.", "$0 idp ldap policy entities myminio"],
      ["List the entities of two policies.", "$0 idp ldap policy entities myminio --policy read-photos --policy write-uploads"],
      ["List the policies of an LDAP user.", "$0 idp ldap policy entities myminio --user \"uid=alice,ou=people,dc=example,dc=net\""],
    ],
  });
  users = Option.Array("-u,--user", [], { description: "list policies associated with user(s)" });
  groups = Option.Array("-g,--group", [], { description: "list policies associated with group(s)" });
  policies = Option.Array("-p,--policy", [], { description: "list users or groups associated with policy" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runLdapPolicyEntities(ctx, this.args, { users: this.users, groups: this.groups, policies: this.policies });
  }
}
