import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyInfo } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey info ALIAS ACCESSKEY [ACCESSKEY...]` (upstream cmd/idp-openid-accesskey-info.go). */
export class IdpOpenidAccesskeyInfoCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "info about given access key pairs for OpenID",
    examples: [
      ["Show an OpenID access key.", "$0 idp openid accesskey info myminio sso-ci"],
      ["Show several.", "$0 idp openid accesskey info myminio sso-ci sso-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY [ACCESSKEY...]" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyInfo(ctx, this.args);
  }
}
