import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPrometheusGenerate } from "../../../minio-admin/prometheus.js";

/** `mc admin prometheus generate` (upstream cmd/admin-prometheus-generate.go). */
export class AdminPrometheusGenerateCommand extends BaseCommand {
  static override paths = [["admin", "prometheus", "generate"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "generates prometheus config",
    details: "TYPE: api-version v2: cluster (default), node, bucket or resource; api-version v3: api, system, debug, cluster, ilm, audit, logger, replication, notification or scanner (all when not given). Nothing is sent: the config is computed from the alias.",
    examples: [
      ["Generate a default prometheus config", "$0 admin prometheus generate myminio"],
      ["Generate a config for the node metrics", "$0 admin prometheus generate myminio node"],
      ["Generate a config without a bearer token (public metrics)", "$0 admin prometheus generate myminio --public"],
      ["Generate a config for the v3 api metrics of bucket 'mybucket'", "$0 admin prometheus generate myminio api --bucket mybucket --api-version v3"],
    ],
  });
  public = Option.Boolean("--public", false, { description: "disable bearer token generation for scrape_configs" });
  bucket = Option.String("--bucket", { description: "bucket name to list metrics for. only applicable with api version v3 for metric type 'api, replication'" });
  apiVersion = Option.String("--api-version", "v2", { description: "version of metrics api to use. valid values are ['v2', 'v3']. defaults to 'v2' if not specified." });
  args = Option.Rest({ name: "ALIAS [TYPE]" });

  async run(ctx: McContext): Promise<void> {
    runPrometheusGenerate(ctx, this.args, this.public, this.apiVersion, this.bucket);
  }
}
