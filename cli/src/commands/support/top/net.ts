import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { createLiveView } from "../../../minio-admin/live-view.js";
import { followMetrics, metricsCapability, metricTypes, wholeNumber } from "../../../minio-admin/top-metrics.js";
import { createNetView } from "../../../minio-admin/top-views.js";

/**
 * `mc support top net ALIAS [--interval S] [--n N]` (upstream
 * cmd/support-top-net.go): MinIO's network metrics per host (madmin v3
 * MetricNet) every interval: receive and transmit rates per server; --json
 * prints each metrics record as the server sent it, as upstream.
 */
export class SupportTopNetCommand extends BaseCommand {
  static override paths = [["support", "top", "net"], ["support", "top", "network"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show real-time net metrics",
    examples: [
      ["Display net metrics", "$0 support top net myminio/"],
      ["Ten samples, two seconds apart, as JSON", "$0 support top net --interval 2 --n 10 --json myminio/"],
    ],
  });
  interval = Option.String("--interval", "1", { description: "interval between requests in seconds" });
  n = Option.String("--n", "0", { description: "number of requests to run before exiting. 0 for endless (default)" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support top net needs one TARGET.");
    const interval = wholeNumber("--interval", this.interval);
    const n = wholeNumber("--n", this.n);
    const target = adminTarget(ctx, this.args[0]);
    const net = createNetView();
    const view = createLiveView(ctx.output, () => net.view());
    try {
      await followMetrics(target.client, { types: metricTypes.net, n, intervalMs: interval * 1000, byHost: true }, (m) => {
        net.add(m);
        // Every record, as upstream, with --json.
        if (ctx.output.json) ctx.output.printJson(m);
        else view.changed();
      });
    } catch (err) {
      view.flush();
      if (ctx.signal.aborted) return;
      throw adminFailure("Unable to fetch top net events", metricsCapability, err);
    }
    view.flush();
  }
}
