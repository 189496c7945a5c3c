import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runLdapPolicyAssociate } from "../../../../minio-admin/ldap-policy-run.js";

/** `mc idp ldap policy attach ALIAS POLICY [POLICY...] --user=USER | --group=GROUP` (upstream cmd/idp-ldap-policy-attach.go). */
export class IdpLdapPolicyAttachCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "policy", "attach"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "attach a policy to an entity",
    details: "Exactly one \"--user\" or \"--group\" flag is required. POLICY is the name of a policy on the MinIO server.",
    examples: [
      ["Attach a policy to an LDAP user.", "$0 idp ldap policy attach myminio read-photos --user \"uid=alice,ou=people,dc=example,dc=net\""],
      ["Attach two policies to an LDAP group.", "$0 idp ldap policy attach myminio read-photos write-uploads --group \"cn=developers,ou=groups,dc=example,dc=net\""],
    ],
  });
  user = Option.String("-u,--user", { description: "attach policy to user by DN or by login name" });
  group = Option.String("-g,--group", { description: "attach policy to LDAP Group DN" });
  args = Option.Rest({ name: "ALIAS POLICY [POLICY...]" });

  async run(ctx: McContext): Promise<void> {
    await runLdapPolicyAssociate(ctx, true, this.args, this.user, this.group);
  }
}
