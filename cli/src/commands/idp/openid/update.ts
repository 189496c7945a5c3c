import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp openid update ALIAS [CFG_NAME] [CFG_PARAMS...]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidUpdateCommand extends BaseCommand {
  static override paths = [["idp", "openid", "update"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Update an OpenID IDP configuration",
    examples: [
      ["Change the scopes of provider corp.", "$0 idp openid update myminio corp scopes=\"openid,groups,email\""],
      ["Change the client secret of the default provider.", "$0 idp openid update myminio client_secret=NEWOIDCSECRET"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME] [CFG_PARAMS...]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "openid", this.args, true);
  }
}
