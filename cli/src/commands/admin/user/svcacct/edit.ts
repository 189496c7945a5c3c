import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcEdit } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct edit` (upstream cmd/admin-user-svcacct-edit.go). */
export class AdminUserSvcacctEditCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "edit"], ["admin", "user", "svcacct", "set"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "edit an existing service account",
    examples: [
      ["Change a service account's secret.", "$0 admin user svcacct edit myminio alice-backup --secret-key \"another-long-secret-of-40-characters\""],
      ["Give it another policy.", "$0 admin user svcacct edit myminio alice-backup --policy ./write-only.json"],
    ],
  });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the service account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the service account" });
  description = Option.String("--description", { description: "description for the service account" });
  expiry = Option.String("--expiry", { description: "time of expiration for the service account" });
  args = Option.Rest({ name: "ALIAS SERVICE-ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcEdit(ctx, this.args, { secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiry: this.expiry });
  }
}
