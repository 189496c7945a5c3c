import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { writeConfig } from "../../config/config-file.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { licenseCapability } from "../../minio-admin/license.js";
import { verifyLicense } from "../../minio-admin/license-verify.js";
import { readSubnetConfig, writeServerLicense } from "../../minio-admin/license-store.js";

/** Go's time.String() of a UTC time. */
const goTime = (d: Date): string => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)} +0000 UTC`;

/**
 * `mc license update ALIAS LICENSE-FILE` (upstream cmd/license-update.go),
 * offline: the license file SUBNET gave for the cluster is verified against
 * SUBNET's public key, must not have expired and must name the cluster's
 * deployment (admin info), then is stored in the server's `subnet license`
 * setting (or, on a server without it, in the alias's config.json entry).
 * Nothing is asked of SUBNET.
 */
export class LicenseUpdateCommand extends BaseCommand {
  static override paths = [["license", "update"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "update the license (offline: from a license file downloaded from SUBNET)",
    examples: [
      ["Update license for cluster with alias 'myminio' from the file license.key", "$0 license update myminio license.key"],
      ["The same, printing the result as JSON", "$0 license update myminio ./minio.license --json"],
    ],
  });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  apiKey = Option.String("--api-key", { hidden: true });
  args = Option.Rest({ name: "ALIAS LICENSE-FILE" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("license update needs ALIAS and LICENSE-FILE.");
    if (this.apiKey !== undefined) throw mcError("Invalid flags.", new Error("--api-key is not applicable in airgap mode"), "invalid_argument");
    const file = this.args[1] ?? "";
    const target = adminTarget(ctx, this.args[0]);
    const alias = target.alias.name;
    const text = await readFile(file, "utf8").catch((err: unknown) => {
      throw mcError(`Unable to read license file ${file}.`, err, "invalid_argument");
    });
    const license = text.trim();
    let info;
    try {
      info = verifyLicense(license);
    } catch (err) {
      throw mcError(`Error parsing license from ${file}.`, err, "invalid_argument");
    }
    if (info.expiresAt !== undefined && info.expiresAt.getTime() < Date.now()) throw mcError(`License has expired on ${goTime(info.expiresAt)}.`, undefined, "failed_precondition");
    const fail = (err: unknown): never => {
      throw adminFailure("Unable to update the license", licenseCapability, err);
    };
    const server = await target.client.json<{ deploymentID?: unknown }>({ method: "GET", path: "/info" }).catch(fail);
    if (info.deploymentId !== server.deploymentID) throw mcError(`License is invalid for the deployment ${alias}.`, new Error(`the license names deployment \`${info.deploymentId}\`, the cluster is \`${String(server.deploymentID ?? "")}\``), "failed_precondition");
    const subnet = await readSubnetConfig(target.client).catch(fail);
    if (subnet.supported) await writeServerLicense(target.client, license).catch(fail);
    else {
      const entry = ctx.config.file.aliases[alias];
      if (entry === undefined) throw mcError(`Unable to save the license of ${alias}.`, new Error("the server keeps no license and the alias is not in config.json (it comes from the environment)"), "failed_precondition");
      entry.license = license;
      await writeConfig(ctx.config.dir, ctx.config.file);
    }
    ctx.output.result({ status: "success" }, `License updated successfully for ${alias}`);
  }
}
