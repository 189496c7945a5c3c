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
      ["Detach a policy from an LDAP user.", "$0 idp ldap policy detach myminio read-photos --user \"uid=alice,ou=people,dc=example,dc=net\""],
      ["Detach two policies from an LDAP group.", "$0 idp ldap policy detach myminio read-photos write-uploads --group \"cn=developers,ou=groups,dc=example,dc=net\""],
    ],
  });
  user = Option.String("-u,--user", { description: "detach policy from user by DN or by login name" });
  group = Option.String("-g,--group", { description: "detach policy from LDAP Group DN" });
  args = Option.Rest({ name: "ALIAS POLICY [POLICY...]" });

  async run(ctx: McContext): Promise<void> {
    await runLdapPolicyAssociate(ctx, false, this.args, this.user, this.group);
  }
}
