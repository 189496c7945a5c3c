import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runLdapAccessKeyCreate } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey create ALIAS [TARGET_USER]` (upstream cmd/admin-accesskey-create.go). */
export class AdminAccesskeyCreateCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "create"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "create access key pairs for users",
    examples: [
      ["Create an access key with the same rights as your own.", "$0 admin accesskey create myminio"],
      ["Create one with chosen keys.", "$0 admin accesskey create myminio --access-key build-bot --secret-key \"a-long-secret-of-40-characters-or-so\""],
      ["Create one for user alice that expires in a day.", "$0 admin accesskey create myminio alice --expiry-duration 24h"],
      ["Create one with a narrower policy, a name and a description.", "$0 admin accesskey create myminio alice --policy ./read-only.json --name backups --description \"nightly backup job\""],
    ],
  });
  accessKey = Option.String("--access-key", { description: "set an access key for the account" });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the access key" });
  description = Option.String("--description", { description: "description for the access key" });
  expiryDuration = Option.String("--expiry-duration", { description: "duration before the access key expires" });
  expiry = Option.String("--expiry", { description: "expiry date for the access key" });
  args = Option.Rest({ name: "ALIAS [TARGET_USER]" });

  async run(ctx: McContext): Promise<void> {
    await runLdapAccessKeyCreate(ctx, this.args, { accessKey: this.accessKey, secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiryDuration: this.expiryDuration, expiry: this.expiry }, true);
  }
}
