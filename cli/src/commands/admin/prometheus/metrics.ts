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
    details: "METRIC-TYPE: api-version v2: cluster (default), node, bucket or resource; api-version v3: api, system, debug, cluster, ilm, audit, logger, replication, notification or scanner (all when not given).",
    examples: [
      ["Metrics reported cluster wide", "$0 admin prometheus metrics play"],
      ["Metrics reported at node level", "$0 admin prometheus metrics play node"],
      ["Bucket metrics as JSON", "$0 admin prometheus metrics play bucket --json"],
      ["API metrics of the v3 metrics API", "$0 admin prometheus metrics play api --api-version v3"],
      ["Replication metrics for the bucket 'mybucket'", "$0 admin prometheus metrics play replication --bucket mybucket --api-version v3"],
    ],
  });
  bucket = Option.String("--bucket", { description: "bucket name to list metrics for. only applicable with api version v3 for metric type 'api, replication'" });
  apiVersion = Option.String("--api-version", "v2", { description: "version of metrics api to use. valid values are ['v2', 'v3']. defaults to 'v2' if not specified." });
  args = Option.Rest({ name: "ALIAS [METRIC-TYPE]" });

  async run(ctx: McContext): Promise<void> {
    await runPrometheusMetrics(ctx, this.args, this.apiVersion, this.bucket);
  }
}
