import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcAdd } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct add` (upstream cmd/admin-user-svcacct-add.go). */
export class AdminUserSvcacctAddCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new service account",
    examples: [
      ["Add a service account for alice.", "$0 admin user svcacct add myminio alice"],
      ["Add one with chosen keys, a name and a description.", "$0 admin user svcacct add myminio alice --access-key alice-backup --secret-key \"a-long-secret-of-40-characters-or-so\" --name backup --description \"nightly backups\""],
      ["Add one with a narrower policy that expires at the end of the year.", "$0 admin user svcacct add myminio alice --policy ./read-only.json --expiry 2026-12-31"],
    ],
  });
  accessKey = Option.String("--access-key", { description: "set an access key for the service account" });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the service account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the service account" });
  description = Option.String("--description", { description: "description for the service account" });
  expiry = Option.String("--expiry", { description: "time of expiration for the service account" });
  args = Option.Rest({ name: "ALIAS ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcAdd(ctx, this.args, { accessKey: this.accessKey, secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiry: this.expiry });
  }
}
