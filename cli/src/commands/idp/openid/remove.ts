import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpRemove } from "../../../minio-admin/idp-run.js";

/** `mc idp openid remove ALIAS [CFG_NAME]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidRemoveCommand extends BaseCommand {
  static override paths = [["idp", "openid", "remove"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove OpenID IDP server configuration",
    examples: [
      ["Remove provider corp.", "$0 idp openid remove myminio corp"],
      ["Remove the default provider.", "$0 idp openid remove myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpRemove(ctx, "openid", this.args);
  }
}
