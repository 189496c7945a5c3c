import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp openid add ALIAS [CFG_NAME] [CFG_PARAMS...]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidAddCommand extends BaseCommand {
  static override paths = [["idp", "openid", "add"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "Create an OpenID IDP server configuration", examples: [["Create a default OpenID IDP configuration (CFG_NAME is omitted)", "$0 idp openid add myminio/ client_id=minio-client-app client_secret=minio-client-app-secret config_url=\"http://localhost:5556/dex/.well-known/openid-configuration\""], ["Create OpenID IDP configuration named \"dex_test\"", "$0 idp openid add myminio/ dex_test client_id=minio-client-app config_url=\"http://localhost:5556/dex/.well-known/openid-configuration\""]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "openid", this.args, false);
  }
}
