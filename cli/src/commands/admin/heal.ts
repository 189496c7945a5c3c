import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { runHeal } from "../../minio-admin/heal-run.js";

/** `mc admin heal` (upstream cmd/admin-heal.go). */
export class AdminHealCommand extends BaseCommand {
  static override paths = [["admin", "heal"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "heal bucket(s) and object(s) on MinIO server",
    details: "SCAN MODES: normal (default) heals objects which are missing on one or more drives; deep also heals objects with silent data corruption.",
    examples: [
      ["Show the background healing status of the deployment 'myminio'", "$0 admin heal myminio/"],
      ["Heal 'testbucket' and everything under it", "$0 admin heal -r myminio/testbucket"],
      ["Inspect, without changing anything, what healing 'dir/' of 'testbucket' would do", "$0 admin heal -r --dry-run myminio/testbucket/dir/"],
    ],
  });
  scan = Option.String("--scan", "normal", { description: "select the healing scan mode (normal/deep)" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "heal recursively" });
  dryRun = Option.Boolean("-n,--dry-run", false, { description: "only inspect data, but do not mutate" });
  forceStart = Option.Boolean("-f,--force-start", false, { description: "force start a new heal sequence" });
  forceStop = Option.Boolean("-s,--force-stop", false, { description: "force stop a running heal sequence" });
  remove = Option.Boolean("--remove", false, { description: "remove dangling objects in heal sequence" });
  args = Option.Rest({ name: "ALIAS[/BUCKET[/PREFIX]]" });

  async run(ctx: McContext): Promise<void> {
    await runHeal(ctx, this.args, { scan: this.scan, recursive: this.recursive, dryRun: this.dryRun, forceStart: this.forceStart, forceStop: this.forceStop, remove: this.remove });
  }
}
