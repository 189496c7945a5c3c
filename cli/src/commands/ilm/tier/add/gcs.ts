import { readFileSync } from "node:fs";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { mcError } from "../../../../core/errors.js";
import { need, runTierAdd } from "../../../../minio-admin/tier-add.js";

/** `mc ilm tier add gcs ALIAS TIER-NAME --credentials-file FILE --bucket …` (upstream cmd/ilm-tier-add-gcs.go): the file sent base64url-encoded. */
export class IlmTierAddGcsCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "add", "gcs"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new GCS remote tier target",
    examples: [
      ["Add a Google Cloud Storage bucket as a remote tier.", "$0 ilm tier add gcs myminio GCSCOLD --credentials-file ./gcs-credentials.json --bucket cold-bucket --prefix tiered/"],
      ["Add it with a storage class.", "$0 ilm tier add gcs myminio GCSARCHIVE --credentials-file ./gcs-credentials.json --bucket archive-bucket --storage-class ARCHIVE"],
    ],
  });
  region = Option.String("--region", { description: "remote tier region. e.g us-west-2" });
  credentialsFile = Option.String("--credentials-file", { description: "path to Google Cloud Storage credentials file" });
  bucket = Option.String("--bucket", { description: "remote tier bucket" });
  prefix = Option.String("--prefix", { description: "remote tier prefix" });
  storageClass = Option.String("--storage-class", { description: "remote tier storage-class" });
  force = Option.Boolean("--force", { description: "ignore if the remote tier bucket is already in use", hidden: true });
  args = Option.Rest({ name: "ALIAS TIER-NAME" });

  async run(ctx: McContext): Promise<void> {
    await runTierAdd(ctx, this.args, "gcs", () => {
      need(!!this.credentialsFile, "GCS remote requires credentials file");
      need(!!this.bucket, "GCS remote tier requires target bucket");
      let creds: Buffer;
      try {
        creds = readFileSync(this.credentialsFile ?? "");
      } catch (err) {
        throw mcError(`Unable to read credentials file at ${this.credentialsFile ?? ""}.`, err, "invalid_argument");
      }
      return { Endpoint: "https://storage.googleapis.com/", Creds: creds.toString("base64url") + "=".repeat((4 - (creds.toString("base64url").length % 4)) % 4), Bucket: this.bucket, Prefix: this.prefix, Region: this.region, StorageClass: this.storageClass };
    }, this.force === true);
  }
}
