import { setTimeout as delay } from "node:timers/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "../minio-admin/admin-errors.js";
import { adminTarget } from "../minio-admin/admin-target.js";
import { clusterHealth, healthCapability, type HealthResult } from "../minio-admin/health.js";

/** Upstream's `healthCheckInterval`. */
const interval = 5000;

/**
 * `mc ready ALIAS` (upstream cmd/ready.go): asks MinIO's cluster health API;
 * when the cluster is not ready, asks again every 5 s, printing each answer,
 * until it is. A server without that API fails in one line.
 */
export class ReadyCommand extends BaseCommand {
  static override paths = [["ready"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "checks if the cluster is ready or not",
    examples: [
      ["Wait until a cluster is ready.", "$0 ready myminio"],
      ["Check that the cluster has read quorum.", "$0 ready --cluster-read myminio"],
      ["Check whether the cluster may be taken down for maintenance.", "$0 ready --maintenance myminio"],
    ],
  });
  clusterRead = Option.Boolean("--cluster-read", false, { description: "check if the cluster has enough read quorum" });
  maintenance = Option.Boolean("--maintenance", false, { description: "check if the cluster is taken down for maintenance" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<number> {
    if (this.args.length !== 1) throw usageError("ready needs one ALIAS.");
    const arg = this.args[0] ?? "";
    const target = adminTarget(ctx, arg);
    const check = (): Promise<HealthResult> =>
      clusterHealth(target.client, { clusterRead: this.clusterRead, maintenance: this.maintenance }).catch((err: unknown) => {
        throw adminFailure(`Couldn't get the health status for \`${arg}\``, healthCapability, err, "health API");
      });
    const print = (r: HealthResult): void => ctx.output.result(r, r.healthy ? "The cluster is ready" : "The cluster is not ready");
    const first = await check();
    // Upstream prints the first answer only when it says ready, then every later one.
    if (first.healthy) {
      print(first);
      return 0;
    }
    for (;;) {
      await delay(interval, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.signal.aborted) return 0;
      const again = await check();
      print(again);
      if (again.healthy) return 0;
    }
  }
}
