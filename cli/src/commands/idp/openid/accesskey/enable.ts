import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey enable ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-enable.go). */
export class IdpOpenidAccesskeyEnableCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable an access key",
    examples: [
      ["Enable an OpenID access key.", "$0 idp openid accesskey enable myminio sso-ci"],
      ["Enable it and print the result as JSON.", "$0 idp openid accesskey enable --json myminio sso-ci"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, true);
  }
}
