import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpSet } from "../../../minio-admin/idp-run.js";

/** `mc idp openid update ALIAS [CFG_NAME] [CFG_PARAMS...]` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidUpdateCommand extends BaseCommand {
  static override paths = [["idp", "openid", "update"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "Update an OpenID IDP configuration", examples: [["Update the scopes of the OpenID IDP configuration named \"dex_test\"", "$0 idp openid update myminio/ dex_test scopes=\"openid,groups\""]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpSet(ctx, "openid", this.args, true);
  }
}
