import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { need, runTierAdd } from "../../../../minio-admin/tier-add.js";

/**
 * `mc ilm tier add s3 ALIAS TIER-NAME --bucket … (--access-key/--secret-key | --use-aws-role)`
 * (upstream cmd/ilm-tier-add-s3.go). The web-identity role flags of madmin
 * v3 (`--aws-role-arn`, `--aws-web-identity-file`) are not offered.
 */
export class IlmTierAddS3Command extends BaseCommand {
  static override paths = [["ilm", "tier", "add", "s3"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new AWS/S3 compatible remote tier target",
    examples: [
      ["Add an AWS S3 bucket as a remote tier named COLD.", "$0 ilm tier add s3 myminio COLD --endpoint https://s3.amazonaws.com --access-key AWSKEY --secret-key AWSSECRET --bucket cold-data --prefix tiered/ --storage-class STANDARD_IA --region us-west-2"],
      ["Use the server's AWS role instead of keys.", "$0 ilm tier add s3 myminio COLD --use-aws-role --bucket cold-data --region us-west-2"],
    ],
  });
  endpoint = Option.String("--endpoint", { description: "remote tier endpoint. e.g https://s3.amazonaws.com" });
  region = Option.String("--region", { description: "remote tier region. e.g us-west-2" });
  accessKey = Option.String("--access-key", { description: "AWS S3 or compatible object storage access-key" });
  secretKey = Option.String("--secret-key", { description: "AWS S3 or compatible object storage secret-key" });
  useAwsRole = Option.Boolean("--use-aws-role", { description: "use AWS S3 role" });
  bucket = Option.String("--bucket", { description: "remote tier bucket" });
  prefix = Option.String("--prefix", { description: "remote tier prefix" });
  storageClass = Option.String("--storage-class", { description: "remote tier storage-class" });
  force = Option.Boolean("--force", { description: "ignore if the remote tier bucket is already in use", hidden: true });
  args = Option.Rest({ name: "ALIAS TIER-NAME" });

  async run(ctx: McContext): Promise<void> {
    await runTierAdd(ctx, this.args, "s3", () => {
      const keys = this.accessKey !== undefined || this.secretKey !== undefined;
      const role = this.useAwsRole === true;
      need(keys || role, "No authentication mechanism was provided");
      need(!(keys && role), "Static credentials cannot be combined with AWS role authentication");
      need(!keys || (this.accessKey !== undefined && this.secretKey !== undefined), "Both --access-key and --secret-key are required to enable static credentials authentication");
      need(!!this.bucket, "S3 remote tier requires target bucket");
      const sc = this.storageClass ?? "";
      need(sc === "" || sc === "STANDARD" || sc === "REDUCED_REDUNDANCY", `unsupported storage-class type ${sc}`);
      return { Endpoint: this.endpoint || "https://s3.amazonaws.com", AccessKey: this.accessKey, SecretKey: this.secretKey, Bucket: this.bucket, Prefix: this.prefix, Region: this.region, StorageClass: sc, AWSRole: role };
    }, this.force === true);
  }
}
