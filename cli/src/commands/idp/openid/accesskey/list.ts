import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runOpenIdAccessKeyList } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey list ALIAS[:CFG_NAME] [USER...]` (upstream cmd/idp-openid-accesskey-list.go). */
export class IdpOpenidAccesskeyListCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "list"], ["idp", "openid", "accesskey", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list access key pairs for OpenID",
    examples: [
      ["List the access keys of every OpenID user (as an admin).", "$0 idp openid accesskey list myminio"],
      ["List those of provider corp only.", "$0 idp openid accesskey list myminio:corp"],
      ["List your own access keys.", "$0 idp openid accesskey list --self myminio"],
    ],
  });
  usersOnly = Option.Boolean("--users-only", false, { description: "only list user DNs" });
  tempOnly = Option.Boolean("--temp-only", false, { description: "only list temporary access keys" });
  svcaccOnly = Option.Boolean("--svcacc-only", false, { description: "only list service account access keys" });
  self = Option.Boolean("--self", false, { description: "list access keys for the authenticated user" });
  all = Option.Boolean("--all", false, { description: "list all access keys for all OpenID users" });
  args = Option.Rest({ name: "ALIAS[:CFG_NAME] [USER...]" });

  async run(ctx: McContext): Promise<void> {
    await runOpenIdAccessKeyList(ctx, this.args, { usersOnly: this.usersOnly, tempOnly: this.tempOnly, svcaccOnly: this.svcaccOnly, self: this.self, all: this.all });
  }
}
