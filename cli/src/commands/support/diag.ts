import { rename, rm, writeFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { parseDuration } from "../../util/humanize.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { diagCapability, fetchHealthReport, healthDataTypes, healthReportFile } from "../../minio-admin/health-report.js";

const boundary = "*********************************************************************************";
const warning = [boundary, "                                   WARNING!!", "     ** THIS FILE MAY CONTAIN SENSITIVE INFORMATION ABOUT YOUR ENVIRONMENT **", "     ** PLEASE INSPECT CONTENTS BEFORE SHARING IT ON ANY PUBLIC FORUM **", boundary].join("\n");

/** UTC `20060102150405`. */
const stamp = (d: Date): string => d.toISOString().replace(/[-:T]/g, "").slice(0, 14);

/**
 * `mc support diag ALIAS` (upstream cmd/support-diag.go) in air-gapped mode,
 * always: the server's health report is saved as
 * `<alias>-health_<UTC time>.json.gz` in the current directory and never
 * uploaded; with --json it is printed instead (upstream's air-gapped JSON).
 */
export class SupportDiagCommand extends BaseCommand {
  static override paths = [["support", "diag"], ["support", "diagnostics"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "save health data for diagnostics (offline: written to ./ALIAS-health_TIME.json.gz)",
    examples: [
      ["Save a cluster's health report to the current folder.", "$0 support diag myminio"],
      ["Save it with strict anonymization.", "$0 support diag --anonymize strict myminio"],
      ["Print the report as JSON instead.", "$0 support diag --json myminio > health.json"],
    ],
  });
  test = Option.String("--test", { description: "choose specific diagnostics to run", hidden: true });
  deadline = Option.String("--deadline", "1h", { description: "maximum duration diagnostics should be allowed to run", hidden: true });
  anonymize = Option.String("--anonymize", "standard", { description: "Data anonymization mode (standard|strict)" });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support diag needs one ALIAS.");
    if (this.anonymize !== "standard" && this.anonymize !== "strict") throw mcError("Invalid anonymization mode. Valid options are 'standard' or 'strict'.", undefined, "invalid_argument");
    const types = this.test === undefined ? [...healthDataTypes] : this.test.split(",").map((t) => t.trim());
    for (const t of types) if (!(healthDataTypes as readonly string[]).includes(t)) throw usageError(`invalid value "${this.test ?? ""}" for flag --test: valid options include ${healthDataTypes.join(",")}`);
    const ms = parseDuration(this.deadline);
    if (ms === undefined || ms < 1000) throw usageError(`invalid value "${this.deadline}" for flag --deadline.`);
    const target = adminTarget(ctx, this.args[0]);
    const report = await fetchHealthReport(target.client, types, Math.floor(ms / 1000), this.anonymize).catch((err: unknown) => {
      throw adminFailure("Unable to fetch health information", diagCapability, err);
    });
    if (ctx.output.json) {
      ctx.output.printJson(JSON.parse(report.info));
      return;
    }
    const file = `${target.alias.name}-health_${stamp(new Date())}.json.gz`;
    const temp = `.${file}.${process.pid}.tmp`;
    try {
      await writeFile(temp, healthReportFile(report), { mode: 0o600 });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw mcError("Unable to save MinIO diagnostics report.", err, "unavailable");
    }
    ctx.output.line(`${warning}\nMinIO diagnostics report saved at  ${file}`);
  }
}
