import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { agplMessage, licenseCapability } from "../../minio-admin/license.js";
import { verifyLicense, type LicenseInfo } from "../../minio-admin/license-verify.js";
import { readSubnetConfig } from "../../minio-admin/license-store.js";
import { displayWidth } from "../../minio-admin/text-box.js";

/** Go's http.TimeFormat. */
const httpTime = (d: Date): string => d.toUTCString();

function infoJson(li: LicenseInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (li.licenseId) out["license_id"] = li.licenseId;
  if (li.organization) out["org"] = li.organization;
  if (li.plan) out["plan"] = li.plan;
  out["issued_at"] = li.issuedAt.toISOString().replace(".000Z", "Z");
  out["expires_at"] = (li.expiresAt ?? new Date(0)).toISOString().replace(".000Z", "Z");
  if (li.deploymentId) out["deployment_id"] = li.deploymentId;
  if (li.apiKey) out["api_key"] = li.apiKey;
  return out;
}

function infoText(li: LicenseInfo): string {
  const rows: string[][] = [
    ["Organization", li.organization],
    ["Plan", li.plan],
    ["Issued", httpTime(li.issuedAt)],
    ["Expires", li.expiresAt ? httpTime(li.expiresAt) : ""],
  ];
  if (li.licenseId) rows.push(["License ID", li.licenseId]);
  if (li.deploymentId) rows.push(["Deployment ID", li.deploymentId]);
  if (li.apiKey) rows.push(["API Key", li.apiKey]);
  return licenseTable(rows);
}

/**
 * upstream's bubbles table (columns of 20 and 45, cells padded one space each
 * side, a line under the header) inside a lipgloss normal border.
 */
function licenseTable(rows: readonly (readonly string[])[]): string {
  const widths = [20, 45];
  const cellText = (text: string, w: number): string => {
    let t = text;
    while (displayWidth(t) > w) t = `${[...t].slice(0, -2).join("")}…`;
    return ` ${t}${" ".repeat(Math.max(0, w - displayWidth(t)))} `;
  };
  const line = (cells: readonly string[]): string => `│${widths.map((w, i) => cellText(cells[i] ?? "", w)).join("")}│`;
  const inner = widths.reduce((n, w) => n + w + 2, 0);
  return [`┌${"─".repeat(inner)}┐`, line(["License", ""]), `│${"─".repeat(inner)}│`, ...rows.map(line), `└${"─".repeat(inner)}┘`].join("\n");
}

/**
 * `mc license info ALIAS` (upstream cmd/license-info.go), offline: the
 * license saved in the server's `subnet` setting (or the alias's
 * config.json entry) is verified against SUBNET's public key and shown; a
 * cluster without one runs under the AGPL, as upstream says. A license that
 * does not verify is reported as an error, exit 1.
 */
export class LicenseInfoCommand extends BaseCommand {
  static override paths = [["license", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display license information",
    examples: [
      ["Display license configuration for cluster with alias 'myminio'", "$0 license info myminio"],
      ["The same as JSON", "$0 license info myminio --json"],
    ],
  });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<number> {
    if (this.args.length !== 1) throw usageError("license info needs one ALIAS.");
    const target = adminTarget(ctx, this.args[0]);
    const subnet = await readSubnetConfig(target.client).catch((err: unknown) => {
      throw adminFailure("Error in checking cluster registration status", licenseCapability, err);
    });
    const saved = subnet.license !== "" ? subnet.license : (ctx.config.file.aliases[target.alias.name]?.license ?? "");
    if (saved === "") {
      ctx.output.result({ status: "success", info: { plan: "AGPLv3", message: agplMessage } }, agplMessage);
      return 0;
    }
    let li: LicenseInfo;
    try {
      li = verifyLicense(saved);
    } catch (err) {
      const error = (err as Error).message;
      if (ctx.output.json) ctx.output.printJson({ status: "error", info: {}, error });
      else ctx.output.error(mcError("The saved license is not valid.", err, "failed_precondition"));
      return 1;
    }
    ctx.output.result({ status: "success", info: infoJson(li) }, infoText(li));
    return 0;
  }
}
