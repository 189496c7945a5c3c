import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runLdapAccessKeyList } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey list ALIAS [USER...]` (upstream cmd/idp-ldap-accesskey-list.go). */
export class IdpLdapAccesskeyListCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "list"], ["idp", "ldap", "accesskey", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list access key pairs for LDAP",
    examples: [
      ["List every LDAP user's access keys (as an admin).", "$0 idp ldap accesskey list myminio"],
      ["List only the LDAP users.", "$0 idp ldap accesskey list --users-only myminio"],
      ["List your own access keys.", "$0 idp ldap accesskey list --self myminio"],
    ],
  });
  usersOnly = Option.Boolean("--users-only", false, { description: "only list user DNs" });
  tempOnly = Option.Boolean("--temp-only", false, { description: "only list temporary access keys" });
  svcaccOnly = Option.Boolean("--svcacc-only", false, { description: "only list service account access keys" });
  self = Option.Boolean("--self", false, { description: "list access keys for the authenticated user" });
  all = Option.Boolean("--all", false, { description: "list all access keys for all LDAP users" });
  args = Option.Rest({ name: "ALIAS [USER...]" });

  async run(ctx: McContext): Promise<void> {
    await runLdapAccessKeyList(ctx, this.args, { usersOnly: this.usersOnly, tempOnly: this.tempOnly, svcaccOnly: this.svcaccOnly, self: this.self, all: this.all });
  }
}
