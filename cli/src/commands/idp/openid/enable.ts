import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpEnable } from "../../../minio-admin/idp-run.js";

/** `mc idp openid enable ALIAS [CFG_NAME]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidEnableCommand extends BaseCommand {
  static override paths = [["idp", "openid", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable an OpenID IDP server configuration",
    examples: [
      ["Enable provider corp.", "$0 idp openid enable myminio corp"],
      ["Enable the default provider.", "$0 idp openid enable myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpEnable(ctx, "openid", this.args, true);
  }
}
