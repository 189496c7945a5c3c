import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey enable ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-enable.go). */
export class IdpOpenidAccesskeyEnableCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "enable"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "enable an access key", examples: [["Enable OpenID access key", "$0 idp openid accesskey enable myminio/ myaccesskey"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, true);
  }
}
