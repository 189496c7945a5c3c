import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { zipArchive } from "../../util/zip-writer.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { goJson, reportStamp, saveReport } from "../../minio-admin/local-report.js";

/** upstream subnetIssueURL. */
const issueUrl = (n: number): string => `https://subnet.min.io/issues/${n}`;

/**
 * `mc support upload ALIAS FILE --issue N [--comment C]` (upstream
 * cmd/support-upload.go) in air-gapped mode, always: instead of posting the
 * file to the SUBNET issue, mc packs it (compressed, as upstream's upload)
 * with what the upload would have said (issue, comment, the cluster's
 * deployment ID from its admin info) into `ALIAS-upload-issue<N>_<time>.zip`
 * for a person to attach to the issue. Nothing is sent to SUBNET.
 */
export class SupportUploadCommand extends BaseCommand {
  static override paths = [["support", "upload"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "prepare a file for a SUBNET issue (offline: packed into ./ALIAS-upload-issueN_TIME.zip)",
    examples: [
      ["Prepare file './trace.log' of cluster 'myminio' for SUBNET issue number 10", "$0 support upload --issue 10 myminio ./trace.log"],
      ["The same with a comment for the issue", '$0 support upload --issue 10 --comment "here is the trace log" myminio ./trace.log'],
    ],
  });
  issue = Option.String("--issue", { description: "SUBNET issue number to which the file is to be uploaded" });
  comment = Option.String("--comment", "", { description: "comment to be posted on the issue along with the file" });
  enc = Option.Boolean("--enc", false, { description: "encrypt content with key only accessible to minio employees (not available offline)" });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "ALIAS FILE" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("support upload needs ALIAS and FILE.");
    const issue = Number(this.issue ?? "0");
    if (!/^\d+$/.test(this.issue ?? "") || !Number.isSafeInteger(issue) || issue <= 0) throw mcError("Invalid issue number.", undefined, "invalid_argument");
    if (this.enc) throw mcError("Unable to upload file to SUBNET.", new Error("--enc encrypts with a key only SUBNET's upload applies; it is not available offline"), "invalid_argument");
    const file = this.args[1] ?? "";
    const target = adminTarget(ctx, this.args[0]);
    const data = await readFile(file).catch((err: unknown) => {
      throw mcError(`Unable to read ${file}.`, err, "invalid_argument");
    });
    const info = await target.client.json<{ deploymentID?: unknown }>({ method: "GET", path: "/info" }).catch((err: unknown) => {
      throw adminFailure("Unable to upload file to SUBNET", "Identifying the cluster for SUBNET", err);
    });
    const name = `${target.alias.name}-upload-issue${issue}_${reportStamp(new Date())}.zip`;
    const about = { issue, issueUrl: issueUrl(issue), ...(this.comment ? { comment: this.comment } : {}), deploymentId: typeof info.deploymentID === "string" ? info.deploymentID : "", alias: target.alias.name, file: basename(file) };
    await saveReport(name, zipArchive([{ name: basename(file), data }, { name: "upload.info", data: Buffer.from(goJson(about)) }])).catch((err: unknown) => {
      throw mcError(`Unable to save ${name}.`, err, "unavailable");
    });
    ctx.output.result({ status: "success", issueUrl: issueUrl(issue), file: name }, `File prepared for SUBNET issue ${issue} as ${name}; attach it at ${issueUrl(issue)}`);
  }
}
