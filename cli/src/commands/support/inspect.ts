import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { inspect, inspectCapability, legacyNaming, minioSupportKey, safeFileName } from "../../minio-admin/inspect.js";
import { saveReport } from "../../minio-admin/local-report.js";

const keyNotes = "The decryption key will ONLY be shown here. It cannot be recovered.\nThe encrypted file can safely be shared without the decryption key.\nEven with the decryption key, data stored with encryption cannot be accessed.";

/**
 * `mc support inspect ALIAS/BUCKET/PATH` (upstream cmd/support-inspect.go) in
 * air-gapped mode, always: the server's raw files for the path (wildcards
 * allowed) come back encrypted to MinIO's support key (or the key in
 * `<config dir>/support_public.pem`) and are saved as
 * `inspect-ALIAS_BUCKET_PATH.enc`; with --legacy the server encrypts with a
 * one-time key, saved as `inspect-data.ID.enc` and printed once.
 */
export class SupportInspectCommand extends BaseCommand {
  static override paths = [["support", "inspect"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "download raw object contents for analysis (offline: saved to ./inspect-….enc)",
    examples: [
      ["Save 'xl.meta' of a specific object from all the drives", "$0 support inspect myminio/bucket/test*/xl.meta"],
      ["Save recursively all objects at a prefix (expensive: use with caution)", "$0 support inspect myminio/bucket/test/**"],
      ["Use the older format: data encrypted with a one-time key that is printed", "$0 support inspect myminio/bucket/test/xl.meta --legacy"],
    ],
  });
  legacy = Option.Boolean("--legacy", false, { description: "use the older inspect format" });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  apiKey = Option.String("--api-key", { hidden: true });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support inspect needs one TARGET.");
    if (this.apiKey !== undefined) throw mcError("Invalid flags.", new Error("--api-key is not applicable in airgap mode"), "invalid_argument");
    const arg = (this.args[0] ?? "").replace(/\\/g, "/");
    const [alias = "", bucket = "", ...rest] = arg.split("/");
    const path = rest.join("/");
    if (bucket === "" || path === "") throw usageError(`\`${arg}\` names no object path; use ALIAS/BUCKET/PATH.`);
    const target = adminTarget(ctx, arg);
    let publicKey: Buffer | undefined;
    if (!this.legacy) {
      const own = join(ctx.config.dir, "support_public.pem");
      publicKey = await readFile(own).catch((err: unknown) => {
        if ((err as { code?: string }).code === "ENOENT") return undefined;
        throw mcError("Unable to inspect file.", err, "unavailable");
      });
      if (publicKey !== undefined && publicKey.length > 0 && !ctx.output.json && !ctx.settings.quiet) ctx.output.line(`Using public key from  ${own}`);
      if (publicKey === undefined || publicKey.length === 0) publicKey = Buffer.from(minioSupportKey, "base64");
    }
    const got = await inspect(target.client, bucket, path, publicKey).catch((err: unknown) => {
      throw adminFailure("Unable to inspect file", inspectCapability, err);
    });
    let file = `inspect-${safeFileName([alias, bucket, path].join("_"))}.enc`;
    let keyHex = "";
    if (got.key !== undefined) ({ file, keyHex } = legacyNaming(got.key));
    await saveReport(file, got.data, { backup: true }).catch((err: unknown) => {
      throw mcError("Unable to download file data.", err, "unavailable");
    });
    const text = keyHex === "" ? `File data successfully downloaded as ${file}` : `Encrypted file data successfully downloaded as ${file}\nDecryption key: ${keyHex}\n\n${keyNotes}`;
    ctx.output.result({ status: "success", file, ...(keyHex ? { key: keyHex } : {}) }, text);
  }
}
