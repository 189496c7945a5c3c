import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyEdit } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey edit ALIAS ACCESSKEY` (upstream cmd/admin-accesskey-edit.go). */
export class AdminAccesskeyEditCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "edit"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "edit existing access keys",
    examples: [
      ["Change an access key's secret.", "$0 admin accesskey edit myminio build-bot --secret-key \"another-long-secret-of-40-characters\""],
      ["Make an access key expire at a date.", "$0 admin accesskey edit myminio build-bot --expiry 2026-12-31"],
      ["Give it another policy and description.", "$0 admin accesskey edit myminio build-bot --policy ./write-only.json --description \"uploads only\""],
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
