import { readFileSync } from "node:fs";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { editTier, tierCapability, tierMessage, type TierCreds } from "../../../minio-admin/tier.js";

/** `mc ilm tier update ALIAS NAME` with new credentials (upstream cmd/ilm-tier-edit.go, madmin EditTier). */
export class IlmTierUpdateCommand extends BaseCommand {
  static override paths = [["ilm", "tier", "update"], ["ilm", "tier", "edit"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "update an existing remote tier configuration",
    examples: [
      ["Change the account key of an Azure tier.", "$0 ilm tier update myminio AZCOLD --account-key NEWACCOUNTKEY"],
      ["Change the keys of an S3 or MinIO tier.", "$0 ilm tier update myminio COLD --access-key NEWKEY --secret-key NEWSECRET"],
      ["Replace the credentials file of a GCS tier.", "$0 ilm tier update myminio GCSCOLD --credentials-file ./new-gcs-credentials.json"],
      ["Switch an S3 tier to the server's AWS role.", "$0 ilm tier update myminio COLD --use-aws-role"],
    ],
  });
  accessKey = Option.String("--access-key", { description: "AWS S3 or compatible object storage access-key" });
  secretKey = Option.String("--secret-key", { description: "AWS S3 or compatible object storage secret-key" });
  useAwsRole = Option.Boolean("--use-aws-role", { description: "use AWS S3 role" });
  accountKey = Option.String("--account-key", { description: "Azure Blob Storage account key" });
  credentialsFile = Option.String("--credentials-file", { description: "path to Google Cloud Storage credentials file" });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 2) throw usageError("ilm tier update needs ALIAS and NAME.");
    if (this.args.length > 2) throw mcError("Incorrect number of arguments for tier-edit subcommand.", undefined, "invalid_argument");
    const name = this.args[1] ?? "";
    let creds: TierCreds;
    if (this.accessKey && this.secretKey && !this.useAwsRole) creds = { access: this.accessKey, secret: this.secretKey, awsrole: false };
    else if (this.useAwsRole) creds = { awsrole: true };
    else if (this.accountKey) creds = { secret: this.accountKey, awsrole: false };
    else if (this.credentialsFile) {
      try {
        creds = { creds: readFileSync(this.credentialsFile), awsrole: false };
      } catch (err) {
        throw mcError(`Unable to read credentials file at ${this.credentialsFile}.`, err, "invalid_argument");
      }
    } else throw mcError("Insufficient credential information supplied to update remote tier target credentials.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    await editTier(target.client, name, creds).catch((err: unknown) => {
      throw adminFailure("Unable to edit remote tier", tierCapability, err);
    });
    ctx.output.result(tierMessage(name), `Updated remote tier ${name}`);
  }
}
