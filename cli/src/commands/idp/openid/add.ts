import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp openid add ALIAS [CFG_NAME] [CFG_PARAMS...]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidAddCommand extends BaseCommand {
  static override paths = [["idp", "openid", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Create an OpenID IDP server configuration",
    examples: [
      ["Configure the default OpenID provider.", "$0 idp openid add myminio client_id=minio client_secret=OIDCSECRET config_url=\"https://sso.example.net/.well-known/openid-configuration\""],
      ["Configure a second provider named corp.", "$0 idp openid add myminio corp client_id=minio config_url=\"https://corp-sso.example.net/.well-known/openid-configuration\" scopes=\"openid,groups\""],
    ],
  });
  args = Option.Rest({ name: "ALIAS [CFG_NAME] [CFG_PARAMS...]" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "openid", this.args, false);
  }
}
