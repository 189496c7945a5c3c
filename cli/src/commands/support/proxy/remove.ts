import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { delConfigKV, proxyCapability } from "../../../minio-admin/support.js";

/** `mc support proxy remove ALIAS` (upstream cmd/support-proxy-remove.go): deletes the server's `subnet proxy` setting. */
export class SupportProxyRemoveCommand extends BaseCommand {
  static override paths = [["support", "proxy", "remove"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Remove proxy configuration",
    examples: [
      ["Stop using a proxy.", "$0 support proxy remove myminio"],
      ["Stop using it and print the result as JSON.", "$0 support proxy remove --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support proxy remove needs one ALIAS.");
    const target = adminTarget(ctx, this.args[0]);
    await delConfigKV(target.client, "subnet proxy").catch((err: unknown) => {
      throw adminFailure("Unable to remove proxy", proxyCapability, err);
    });
    ctx.output.result({ status: "success" }, "Proxy has been removed");
  }
}
