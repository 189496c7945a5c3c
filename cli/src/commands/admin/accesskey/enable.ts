import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey enable ALIAS ACCESSKEY` (upstream cmd/admin-accesskey-enable.go). */
export class AdminAccesskeyEnableCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable an access key",
    examples: [
      ["Enable an access key.", "$0 admin accesskey enable myminio build-bot"],
      ["Enable it and print the result as JSON.", "$0 admin accesskey enable --json myminio build-bot"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, true);
  }
}
