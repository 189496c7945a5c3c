import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runIdpList } from "../../../minio-admin/idp-run.js";

/** `mc idp openid list ALIAS` (upstream cmd/idp-openid-subcommands.go). */
export class IdpOpenidListCommand extends BaseCommand {
  static override paths = [["idp", "openid", "list"], ["idp", "openid", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list OpenID IDP server configuration(s)",
    examples: [
      ["List the OpenID providers.", "$0 idp openid list myminio"],
      ["List them as JSON.", "$0 idp openid ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIdpList(ctx, "openid", this.args);
  }
}
