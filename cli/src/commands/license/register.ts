import { writeFile, rename } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { licenseCapability, registrationToken, subnetRegisterUrl } from "../../minio-admin/license.js";

/**
 * `mc license register ALIAS [--name NAME] [--airgap] [--token-file FILE]`
 * (upstream cmd/license-register.go, its air-gapped branch): reads the
 * cluster's info from its own admin API and prints the SUBNET offline
 * registration URL carrying the token; nothing is sent to SUBNET.
 */
export class LicenseRegisterCommand extends BaseCommand {
  static override paths = [["license", "register"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "register with MinIO Subscription Network (offline: prints the registration URL)",
    details: "This mc never contacts SUBNET: it always works as upstream's --airgap mode. Open the printed URL on a machine with internet access to finish the registration.",
    examples: [
      ["Print the offline registration URL of a cluster.", "$0 license register myminio"],
      ["Register under a name of your own and keep the token in a file.", "$0 license register --name acme-prod --token-file ./acme-prod.regtoken myminio"],
    ],
  });
  name = Option.String("--name", { description: "Specify the name to associate to this MinIO cluster in SUBNET" });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  tokenFile = Option.String("--token-file", { description: "also write the registration token to this file" });
  apiKey = Option.String("--api-key", { hidden: true });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("license register needs one ALIAS.");
    if (this.apiKey !== undefined) throw mcError("Invalid flags.", new Error("--api-key is not applicable in airgap mode"), "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    const info = await target.client.json<unknown>({ method: "GET", path: "/info" }).catch((err: unknown) => {
      throw adminFailure("Unable to fetch cluster info", licenseCapability, err);
    });
    if (typeof info !== "object" || info === null || Array.isArray(info)) throw mcError("Unable to fetch cluster info.", new Error("the server's info is not a JSON object"), "unavailable");
    const token = registrationToken(info as Record<string, unknown>, this.name ?? target.alias.name);
    if (this.tokenFile !== undefined) {
      const temp = `${this.tokenFile}.${process.pid}.tmp`;
      await writeFile(temp, `${token}\n`, { mode: 0o600 });
      await rename(temp, this.tokenFile);
    }
    const url = `${subnetRegisterUrl}${token}`;
    ctx.output.result({ status: "success", type: "offline", url }, `Open the following URL in the browser to register ${target.alias.name} on SUBNET:\n${url}`);
  }
}
