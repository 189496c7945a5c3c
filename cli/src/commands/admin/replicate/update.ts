import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runReplicateUpdate } from "../../../minio-admin/site-replication-run.js";

/** `mc admin replicate update` (upstream cmd/admin-replicate-update.go). */
export class AdminReplicateUpdateCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "update"], ["admin", "replicate", "edit"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "modify endpoint of site participating in site replication",
    examples: [
      ["Edit a site endpoint participating in cluster-level replication", "$0 admin replicate update myminio --deployment-id c1758167-4426-454f-9aae-5c3dfdf6df64 --endpoint https://minio2:9000"],
      ["Switch a site to synchronous replication", "$0 admin replicate update myminio --deployment-id c1758167-4426-454f-9aae-5c3dfdf6df64 --mode sync"],
      ["Edit a site in cluster-level replication to set default bandwidth limit for bucket", "$0 admin replicate update myminio --deployment-id c1758167-4426-454f-9aae-5c3dfdf6df64 --bucket-bandwidth \"2G\""],
      ["Disable replication of ILM expiry in cluster-level replication", "$0 admin replicate update myminio --disable-ilm-expiry-replication"],
      ["Enable replication of ILM expiry in cluster-level replication", "$0 admin replicate update myminio --enable-ilm-expiry-replication"],
    ],
  });
  deploymentId = Option.String("--deployment-id", { description: "deployment id of the site, should be a unique value" });
  endpoint = Option.String("--endpoint", { description: "endpoint for the site" });
  mode = Option.String("--mode", { description: "change mode of replication for this target, valid values are ['sync', 'async']." });
  sync = Option.String("--sync", { description: "enable synchronous replication for this target, valid values are ['enable', 'disable'].", hidden: true });
  bucketBandwidth = Option.String("--bucket-bandwidth", { description: "Set default bandwidth limit for bucket in bytes per second (K,B,G,T for metric and Ki,Bi,Gi,Ti for IEC units)" });
  disableIlmExpiry = Option.Boolean("--disable-ilm-expiry-replication", false, { description: "disable ILM expiry rules replication" });
  enableIlmExpiry = Option.Boolean("--enable-ilm-expiry-replication", false, { description: "enable ILM expiry rules replication" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateUpdate(ctx, this.args, { deploymentId: this.deploymentId, endpoint: this.endpoint, mode: this.mode, sync: this.sync, bucketBandwidth: this.bucketBandwidth, disableIlmExpiry: this.disableIlmExpiry, enableIlmExpiry: this.enableIlmExpiry });
  }
}
