import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpEnable } from "../../../minio-admin/idp-run.js";

/** `mc idp openid disable ALIAS [CFG_NAME]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidDisableCommand extends BaseCommand {
  static override paths = [["idp", "openid", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Disable an OpenID IDP server configuration",
    examples: [
      ["Disable provider corp.", "$0 idp openid disable myminio corp"],
      ["Disable the default provider.", "$0 idp openid disable myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpEnable(ctx, "openid", this.args, false);
  }
}
