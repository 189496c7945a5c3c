import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyRemove } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey remove ALIAS ACCESSKEY` (upstream cmd/admin-accesskey-remove.go). */
export class AdminAccesskeyRemoveCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "remove"], ["admin", "accesskey", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "delete access key pairs",
    examples: [
      ["Remove an access key.", "$0 admin accesskey remove myminio build-bot"],
      ["The same, with the short name.", "$0 admin accesskey rm myminio deploy-bot"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyRemove(ctx, this.args);
  }
}
