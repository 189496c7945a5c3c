import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey disable ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-disable.go). */
export class IdpOpenidAccesskeyDisableCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable an access key",
    examples: [
      ["Disable an OpenID access key.", "$0 idp openid accesskey disable myminio sso-ci"],
      ["Disable it and print the result as JSON.", "$0 idp openid accesskey disable --json myminio sso-ci"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, false);
  }
}
