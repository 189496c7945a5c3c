import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { createLiveView } from "../../../minio-admin/live-view.js";
import { followMetrics, metricsCapability, metricTypes } from "../../../minio-admin/top-metrics.js";
import { createDriveView, drivesOf } from "../../../minio-admin/top-views.js";

/**
 * `mc support top drive ALIAS [--count N]` (upstream cmd/support-top-drive.go):
 * the cluster's drives (admin info), then MinIO's per-drive I/O metrics every
 * second, N samples, as upstream's table (used, tps, read, write, discard,
 * await, util) of the first pool's drives; see live-view.ts for the forms.
 */
export class SupportTopDriveCommand extends BaseCommand {
  static override paths = [["support", "top", "drive"], ["support", "top", "disk"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show real-time drive metrics",
    examples: [
      ["Display drive metrics", "$0 support top drive myminio/"],
      ["Show up to 4 drives", "$0 support top drive --count 4 myminio/"],
    ],
  });
  count = Option.String("-c,--count", "10", { description: "show up to N drives" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support top drive needs one TARGET.");
    const count = Number(this.count);
    if (!/^\d+$/.test(this.count) || !Number.isSafeInteger(count)) throw usageError(`invalid value "${this.count}" for flag --count.`);
    const target = adminTarget(ctx, this.args[0]);
    const fail = (err: unknown): never => {
      throw adminFailure("Unable to fetch top drive events", metricsCapability, err);
    };
    const info = await target.client.json<Record<string, unknown>>({ method: "GET", path: "/info" }).catch(fail);
    const drives = createDriveView(drivesOf(info), count);
    const view = createLiveView(ctx.output, () => drives.view());
    try {
      await followMetrics(target.client, { types: metricTypes.disk, n: count, intervalMs: 1000, byDisk: true }, (m) => {
        drives.add(m);
        view.changed();
      });
    } catch (err) {
      view.flush();
      if (ctx.signal.aborted) return;
      fail(err);
    }
    view.flush();
  }
}
