import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPrometheusMetrics } from "../../../minio-admin/prometheus.js";

/** `mc admin prometheus metrics` (upstream cmd/admin-prometheus-metrics.go). */
export class AdminPrometheusMetricsCommand extends BaseCommand {
  static override paths = [["admin", "prometheus", "metrics"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "print prometheus metrics",
    details: "METRIC-TYPE: cluster (default), node, bucket or resource.",
    examples: [
      ["Metrics reported cluster wide", "$0 admin prometheus metrics play"],
      ["Metrics reported at node level", "$0 admin prometheus metrics play node"],
      ["Bucket metrics as JSON", "$0 admin prometheus metrics play bucket --json"],
    ],
  });
  apiVersion = Option.String("--api-version", "v2", { description: "version of metrics api to use (v2)" });
  args = Option.Rest({ name: "ALIAS [METRIC-TYPE]" });

  async run(ctx: McContext): Promise<void> {
    await runPrometheusMetrics(ctx, this.args, this.apiVersion);
  }
}
