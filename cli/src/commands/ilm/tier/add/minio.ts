import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { need, runTierAdd } from "../../../../minio-admin/tier-add.js";

/** `mc ilm tier add minio ALIAS TIER-NAME --endpoint … --access-key … --secret-key … --bucket …` (upstream cmd/ilm-tier-add-minio.go). */
export class IlmTierAddMinioCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "add", "minio"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new MinIO remote tier target",
    examples: [
      ["Add a MinIO deployment as a remote tier named WARM.", "$0 ilm tier add minio myminio WARM --endpoint https://warm.example.net --access-key WARMKEY --secret-key WARMSECRET --bucket warm-data --prefix tiered/"],
      ["Add it with a region.", "$0 ilm tier add minio myminio WARM2 --endpoint https://warm2.example.net --region eu-central-1 --access-key WARMKEY --secret-key WARMSECRET --bucket warm-data"],
    ],
  });
  endpoint = Option.String("--endpoint", { description: "remote tier endpoint. e.g https://s3.amazonaws.com" });
  region = Option.String("--region", { description: "remote tier region. e.g us-west-2" });
  accessKey = Option.String("--access-key", { description: "MinIO object storage access-key" });
  secretKey = Option.String("--secret-key", { description: "MinIO object storage secret-key" });
  bucket = Option.String("--bucket", { description: "remote tier bucket" });
  prefix = Option.String("--prefix", { description: "remote tier prefix" });
  force = Option.Boolean("--force", { description: "ignore if the remote tier bucket is already in use", hidden: true });
  args = Option.Rest({ name: "ALIAS TIER-NAME" });

  async run(ctx: McContext): Promise<void> {
    await runTierAdd(ctx, this.args, "minio", () => {
      need(!!this.accessKey && !!this.secretKey, "MinIO remote tier requires access credentials");
      need(!!this.bucket, "MinIO remote tier requires target bucket");
      need(!!this.endpoint, "MinIO remote tier requires target endpoint");
      return { Endpoint: this.endpoint, AccessKey: this.accessKey, SecretKey: this.secretKey, Bucket: this.bucket, Prefix: this.prefix, Region: this.region };
    }, this.force === true);
  }
}
