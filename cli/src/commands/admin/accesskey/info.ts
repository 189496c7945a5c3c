import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyInfo } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey info ALIAS ACCESSKEY [ACCESSKEY...]` (upstream cmd/admin-accesskey-info.go). */
export class AdminAccesskeyInfoCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "info about given access key pairs",
    examples: [
      ["Show an access key.", "$0 admin accesskey info myminio build-bot"],
      ["Show several.", "$0 admin accesskey info myminio build-bot deploy-bot"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY [ACCESSKEY...]" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyInfo(ctx, this.args);
  }
}
