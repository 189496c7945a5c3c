import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcAdd } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct add` (upstream cmd/admin-user-svcacct-add.go). */
export class AdminUserSvcacctAddCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "add"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "add a new service account", examples: [["Add a new service account for user \"foobar\" with a name and description", "$0 admin user svcacct add myminio foobar --name uploaderKey --description \"foobar uploader scripts\""], ["Add a new service account with specified access key and secret key for user \"foobar\"", "$0 admin user svcacct add myminio foobar --access-key myaccesskey --secret-key mysecretkey"]] });
  accessKey = Option.String("--access-key", { description: "set an access key for the service account" });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the service account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the service account" });
  description = Option.String("--description", { description: "description for the service account" });
  expiry = Option.String("--expiry", { description: "time of expiration for the service account" });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runSvcAdd(ctx, this.args, { accessKey: this.accessKey, secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiry: this.expiry });
  }
}
