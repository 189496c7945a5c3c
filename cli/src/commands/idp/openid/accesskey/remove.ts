import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyRemove } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey remove ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-remove.go). */
export class IdpOpenidAccesskeyRemoveCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "remove"], ["idp", "openid", "accesskey", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "delete access key pairs for OpenID",
    examples: [
      ["Remove an OpenID access key.", "$0 idp openid accesskey remove myminio sso-ci"],
      ["The same, with the short name.", "$0 idp openid accesskey rm myminio sso-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyRemove(ctx, this.args);
  }
}
