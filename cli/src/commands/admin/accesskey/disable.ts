import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyEnable } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey disable ALIAS ACCESSKEY` (upstream cmd/admin-accesskey-disable.go). */
export class AdminAccesskeyDisableCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable an access key",
    examples: [
      ["Disable an access key.", "$0 admin accesskey disable myminio build-bot"],
      ["Disable it and print the result as JSON.", "$0 admin accesskey disable --json myminio build-bot"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyEnable(ctx, this.args, false);
  }
}
