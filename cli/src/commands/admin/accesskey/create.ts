import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runLdapAccessKeyCreate } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey create ALIAS [TARGET_USER]` (upstream cmd/admin-accesskey-create.go). */
export class AdminAccesskeyCreateCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "create"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "create access key pairs for users", examples: [["Create a new access key pair with the same policy as the authenticated user", "$0 admin accesskey create myminio/"], ["Create a new access key pair with custom access key and secret key", "$0 admin accesskey create myminio/ --access-key myaccesskey --secret-key mysecretkey"], ["Create a new access key pair for user \"james\" that expires in 1 day", "$0 admin accesskey create myminio/ james --expiry-duration 24h"]] });
  accessKey = Option.String("--access-key", { description: "set an access key for the account" });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the access key" });
  description = Option.String("--description", { description: "description for the access key" });
  expiryDuration = Option.String("--expiry-duration", { description: "duration before the access key expires" });
  expiry = Option.String("--expiry", { description: "expiry date for the access key" });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runLdapAccessKeyCreate(ctx, this.args, { accessKey: this.accessKey, secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiryDuration: this.expiryDuration, expiry: this.expiry }, true);
  }
}
