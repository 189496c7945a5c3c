import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runLdapPolicyAssociate } from "../../../../minio-admin/ldap-policy-run.js";

/** `mc idp ldap policy detach ALIAS POLICY [POLICY...] --user=USER | --group=GROUP` (upstream cmd/idp-ldap-policy-detach.go). */
export class IdpLdapPolicyDetachCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "policy", "detach"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "detach a policy from an entity",
    details: "Exactly one \"--user\" or \"--group\" flag is required. POLICY is the name of a policy on the MinIO server.",
    examples: [
      ["Detach policy \"mypolicy\" from a user", "$0 idp ldap policy detach myminio/ mypolicy --user='uid=bobfisher,ou=people,ou=hwengg,dc=min,dc=io'"],
      ["Detach policies \"policy1\" and \"policy2\" from a group", "$0 idp ldap policy detach myminio/ policy1 policy2 --group='cn=projectb,ou=groups,ou=swengg,dc=min,dc=io'"],
    ],
  });
  user = Option.String("-u,--user", { description: "detach policy from user by DN or by login name" });
  group = Option.String("-g,--group", { description: "detach policy from LDAP Group DN" });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runLdapPolicyAssociate(ctx, false, this.args, this.user, this.group);
  }
}
