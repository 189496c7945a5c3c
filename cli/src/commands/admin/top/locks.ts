import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runTopLocks } from "../../../minio-admin/top-locks-run.js";

/** `mc admin top locks` (upstream cmd/admin-top-locks.go). */
export class AdminTopLocksCommand extends BaseCommand {
  static override paths = [["admin", "top", "locks"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get a list of the 10 oldest locks on a MinIO cluster",
    examples: [
      ["Get a list of the 10 oldest locks on a MinIO cluster", "$0 admin top locks myminio/"],
      ["List the stale locks only", "$0 admin top locks myminio/ --stale"],
    ],
  });
  stale = Option.Boolean("--stale", false, { description: "list stale locks" });
  count = Option.String("--count", "10", { description: "number of top locks", hidden: true });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runTopLocks(ctx, this.args, this.count, this.stale);
  }
}
