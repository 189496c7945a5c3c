import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runAccessKeyInfo } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey info ALIAS ACCESSKEY [ACCESSKEY...]` (upstream cmd/admin-accesskey-info.go). */
export class AdminAccesskeyInfoCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "info"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "info about given access key pairs", examples: [["Get info for the access key \"testkey\"", "$0 admin accesskey info myminio/ testkey"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runAccessKeyInfo(ctx, this.args);
  }
}
