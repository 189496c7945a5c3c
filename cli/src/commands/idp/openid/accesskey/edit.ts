import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runAccessKeyEdit } from "../../../../minio-admin/access-key-run.js";

/** `mc idp openid accesskey edit ALIAS ACCESSKEY` (upstream cmd/idp-openid-accesskey-edit.go). */
export class IdpOpenidAccesskeyEditCommand extends BaseCommand {
  static override paths = [["idp", "openid", "accesskey", "edit"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "edit existing access keys for OpenID",
    examples: [
      ["Change an OpenID access key's secret.", "$0 idp openid accesskey edit myminio sso-ci --secret-key \"another-long-secret-of-40-characters\""],
      ["Give it a name and a description.", "$0 idp openid accesskey edit myminio sso-ci --name ci --description \"pipeline uploads\""],
    ],
  });
  secretKey = Option.String("--secret-key", { description: "set a new secret key for the access key" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the access key" });
  description = Option.String("--description", { description: "description for the access key" });
  expiryDuration = Option.String("--expiry-duration", { description: "duration before the access key expires" });
  expiry = Option.String("--expiry", { description: "expiry date for the access key" });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEdit(ctx, this.args, { secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiryDuration: this.expiryDuration, expiry: this.expiry });
  }
}
