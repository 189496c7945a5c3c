import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpInfo } from "../../../minio-admin/idp-run.js";

/** `mc idp openid info ALIAS [CFG_NAME]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidInfoCommand extends BaseCommand {
  static override paths = [["idp", "openid", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get OpenID IDP server configuration info",
    examples: [
      ["Show provider corp.", "$0 idp openid info myminio corp"],
      ["Show the default provider.", "$0 idp openid info myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpInfo(ctx, "openid", this.args);
  }
}
