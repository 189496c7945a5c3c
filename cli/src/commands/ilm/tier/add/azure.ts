import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { need, runTierAdd } from "../../../../minio-admin/tier-add.js";

/**
 * `mc ilm tier add azure ALIAS TIER-NAME --account-name … --account-key … --bucket …`
 * (upstream cmd/ilm-tier-add-azure.go; the service-principal flags of madmin v3 are not offered).
 */
export class IlmTierAddAzureCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "add", "azure"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new Azure remote tier target",
    examples: [
      ["Add an Azure Blob Storage container as a remote tier.", "$0 ilm tier add azure myminio AZCOLD --account-name myaccount --account-key ACCOUNTKEY --bucket cold-container --prefix tiered/"],
      ["Add it with an access tier.", "$0 ilm tier add azure myminio AZARCHIVE --account-name myaccount --account-key ACCOUNTKEY --bucket archive-container --storage-class Archive"],
    ],
  });
  endpoint = Option.String("--endpoint", { description: "remote tier endpoint. e.g https://s3.amazonaws.com" });
  region = Option.String("--region", { description: "remote tier region. e.g us-west-2" });
  accountName = Option.String("--account-name", { description: "Azure Blob Storage account name" });
  accountKey = Option.String("--account-key", { description: "Azure Blob Storage account key" });
  bucket = Option.String("--bucket", { description: "remote tier bucket" });
  prefix = Option.String("--prefix", { description: "remote tier prefix" });
  storageClass = Option.String("--storage-class", { description: "remote tier storage-class" });
  force = Option.Boolean("--force", { description: "ignore if the remote tier bucket is already in use", hidden: true });
  args = Option.Rest({ name: "ALIAS TIER-NAME" });

  async run(ctx: McContext): Promise<void> {
    await runTierAdd(ctx, this.args, "azure", () => {
      need(!!this.accountName && !!this.accountKey, "Azure remote tier requires the storage account name and key");
      need(!!this.bucket, "Azure remote tier requires target bucket");
      return { Endpoint: this.endpoint || "http://blob.core.windows.net", AccountName: this.accountName, AccountKey: this.accountKey, Bucket: this.bucket, Prefix: this.prefix, Region: this.region, StorageClass: this.storageClass };
    }, this.force === true);
  }
}
