import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyRemove } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey remove ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-remove.go). */
export class IdpOpenidAccesskeyRemoveCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "remove"], ["idp", "openid", "accesskey", "rm"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "delete access key pairs for OpenID", examples: [["Remove the access key \"testkey\"", "$0 idp openid accesskey remove myminio/ testkey"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyRemove(ctx, this.args);
  }
}
