import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { agplMessage } from "../../minio-admin/license.js";

/**
 * `mc license info ALIAS` (upstream cmd/license-info.go), offline: a cluster
 * without a license saved for its alias runs under the AGPL, as upstream
 * says. A saved license (a SUBNET-signed JWT) cannot be verified without
 * SUBNET's key, and an unverified license is never shown as valid.
 */
export class LicenseInfoCommand extends BaseCommand {
  static override paths = [["license", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display license information",
    examples: [
      ["Show the license of a cluster.", "$0 license info myminio"],
      ["Show it without asking SUBNET.", "$0 license info --airgap myminio"],
    ],
  });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<number> {
    if (this.args.length !== 1) throw usageError("license info needs one ALIAS.");
    const name = (this.args[0] ?? "").replace(/\/.*$/, "");
    const alias = ctx.aliases.get(name);
    if (alias === undefined) throw mcError("Unable to initialize admin connection.", new Error(`No valid configuration found for '${name}' host alias`), "invalid_argument");
    const saved = ctx.config.file.aliases[name]?.license;
    if (saved === undefined || saved === "") {
      ctx.output.result({ status: "success", info: { plan: "AGPLv3", message: agplMessage } }, agplMessage);
      return 0;
    }
    const error = "The saved license cannot be verified offline: SUBNET's public key is not available to this mc.";
    ctx.output.result({ status: "error", info: {}, error }, error);
    return 1;
  }
}
