import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { createLiveView } from "../../../minio-admin/live-view.js";
import { followMetrics, metricsCapability, metricTypes, wholeNumber } from "../../../minio-admin/top-metrics.js";
import { rpcView } from "../../../minio-admin/top-views.js";
import { createReplayPace, replayLines } from "../../../minio-admin/replay-input.js";

/**
 * `mc support top rpc ALIAS [--nodes H,…] [--interval S] [--n N]` (upstream
 * cmd/support-top-rpc.go): MinIO's internode RPC metrics (madmin v3
 * MetricsRPC) every interval, as upstream's table of connections; --json
 * prints each metrics record as the server sent it. --in FILE replays
 * records saved with --json at their pace (at most 3 s apart), no server.
 */
export class SupportTopRpcCommand extends BaseCommand {
  static override paths = [["support", "top", "rpc"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show real-time rpc metrics (grid only)",
    examples: [
      ["Display rpc metrics", "$0 support top rpc myminio/"],
      ["Only from two servers, five samples", "$0 support top rpc --nodes node1:9000,node2:9000 --n 5 myminio/"],
      ["Replay rpc metrics saved earlier with --json", "$0 support top rpc --in rpc.json"],
    ],
  });
  nodes = Option.String("--nodes", "", { description: "collect only metrics from matching servers, comma separate multiple" });
  interval = Option.String("--interval", "1", { description: "interval between requests in seconds" });
  n = Option.String("--n", "0", { description: "number of requests to run before exiting. 0 for endless (default)" });
  inFile = Option.String("--in", { description: "read previously saved json from file and replay" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    const replay = (this.inFile ?? "") !== "";
    if (this.args.length !== 1 && !(replay && this.args.length === 0)) throw usageError("support top rpc needs one TARGET (or --in FILE).");
    const interval = wholeNumber("--interval", this.interval);
    const n = wholeNumber("--n", this.n);
    let last: Record<string, unknown> = {};
    const view = createLiveView(ctx.output, () => ({ text: rpcView(last), json: last }));
    if (replay) {
      const pace = createReplayPace(ctx.signal);
      await replayLines(this.inFile ?? "", ctx.signal, async (m) => {
        const rpc = (m["aggregated"] as { rpc?: { collectedAt?: string } | null } | undefined)?.rpc;
        if (!rpc) return;
        await pace(rpc.collectedAt ?? "");
        last = m;
        if (ctx.output.json) ctx.output.printJson(m);
        else view.changed();
      });
      view.flush();
      return;
    }
    const target = adminTarget(ctx, this.args[0]);
    try {
      // upstream splits --nodes on commas: "" becomes one empty host, sent as `hosts=`.
      await followMetrics(target.client, { types: metricTypes.rpc, n, intervalMs: interval * 1000, hosts: this.nodes.split(","), byHost: true }, (m) => {
        last = m;
        if (ctx.output.json) ctx.output.printJson(m);
        else view.changed();
      });
    } catch (err) {
      view.flush();
      if (ctx.signal.aborted) return;
      throw adminFailure("Unable to fetch top rpc events", metricsCapability, err);
    }
    view.flush();
  }
}
