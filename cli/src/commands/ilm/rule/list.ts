import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle, type Json, type JsonObject } from "../../../storage/s3/bucket/lifecycle.js";
import { ruleFilter } from "../../../storage/s3/bucket/lifecycle-rule.js";
import { bucketTarget } from "../../../storage/s3/target.js";
import { iBytesCompact } from "../../../util/humanize.js";

const field = (v: Json | undefined, name: string): string => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "";
  const x = v[name];
  return x === undefined || x === null ? "" : String(x);
};

/** One table row per rule: what it matches and what it does. */
function describe(rule: JsonObject): string[] {
  const { prefix, tags, size } = ruleFilter(rule);
  const when = (v: Json | undefined): string => (field(v, "Days") !== "" ? `${field(v, "Days")}d` : field(v, "Date").slice(0, 10));
  const expiry = [when(rule["Expiration"]), field(rule["Expiration"], "ExpiredObjectDeleteMarker") === "true" ? "delete-marker" : ""].filter((s) => s !== "").join(", ");
  const noncurrent = field(rule["NoncurrentVersionExpiration"], "NoncurrentDays");
  const transition = rule["Transition"] === undefined ? "" : `${when(rule["Transition"])} → ${field(rule["Transition"], "StorageClass")}`;
  const ncTransition = rule["NoncurrentVersionTransition"] === undefined ? "" : `${field(rule["NoncurrentVersionTransition"], "NoncurrentDays")}d → ${field(rule["NoncurrentVersionTransition"], "StorageClass")}`;
  return [
    String(rule["ID"] ?? ""),
    String(rule["Status"] ?? ""),
    prefix === "" ? "-" : prefix,
    tags.length === 0 ? "-" : tags.map((t) => `${String(t["Key"])}=${String(t["Value"])}`).join("&"),
    expiry || "-",
    noncurrent === "" ? "-" : `${noncurrent}d`,
    transition || "-",
    ncTransition || "-",
    [size.gt === undefined ? "" : `>${iBytesCompact(size.gt)}`, size.lt === undefined ? "" : `<${iBytesCompact(size.lt)}`].filter((x) => x !== "").join(" ") || "-",
  ];
}

export class IlmRuleListCommand extends BaseCommand {
  static override paths = [["ilm", "rule", "list"], ["ilm", "rule", "ls"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "list the lifecycle rules of a bucket",
    examples: [
      ["List the lifecycle rules of a bucket.", "$0 ilm rule list myalias/mybucket"],
      ["List only the expiry rules.", "$0 ilm rule list --expiry myalias/mybucket"],
      ["List only the transition rules.", "$0 ilm rule list --transition myalias/mybucket"],
      ["List the rules as JSON.", "$0 ilm rule ls --json myalias/mybucket"],
    ],
  });
  expiry = Option.Boolean("--expiry", false, { description: "show only the rules that expire objects, with their expiry columns" });
  transition = Option.Boolean("--transition", false, { description: "show only the rules that transition objects, with their transition columns" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule list needs one TARGET (alias/bucket).");
    if (this.expiry && this.transition) throw usageError("use only one of --expiry and --transition.");
    const target = bucketTarget(ctx, this.args[0], "ilm rule list");
    const stored = await getLifecycle(target.client, target.bucket).catch((err: unknown) => {
      throw isAppError(err) ? err : mcError(`Unable to get the lifecycle configuration of \`${target.url}\`.`, err);
    });
    const actions = this.expiry ? ["Expiration", "NoncurrentVersionExpiration"] : this.transition ? ["Transition", "NoncurrentVersionTransition"] : undefined;
    const config = actions ? { ...stored, Rules: stored.Rules.filter((r) => actions.some((a) => r[a] !== undefined)) } : stored;
    // Columns: the filter's, then those of the chosen kind of action.
    const columns = this.expiry ? [0, 1, 2, 3, 4, 5, 8] : this.transition ? [0, 1, 2, 3, 6, 7, 8] : [0, 1, 2, 3, 4, 5, 6, 7, 8];
    if (ctx.output.json) {
      ctx.output.printJson({ status: "success", target: target.url, config });
      return;
    }
    if (config.Rules.length === 0) {
      ctx.output.line(`No lifecycle rules on \`${target.url}\`.`);
      return;
    }
    const all = [["ID", "STATUS", "PREFIX", "TAGS", "EXPIRY", "NONCURRENT EXPIRY", "TRANSITION", "NONCURRENT TRANSITION", "SIZE"], ...config.Rules.map(describe)];
    // The SIZE column only when some rule filters on size (the table stays as it was otherwise).
    const shown = all.slice(1).some((row) => row[8] !== "-") ? columns : columns.filter((i) => i !== 8);
    const rows = all.map((row) => shown.map((i) => row[i] ?? ""));
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length))) ?? [];
    for (const row of rows) ctx.output.line(row.map((cell, i) => cell + " ".repeat((widths[i] ?? 0) - [...cell].length)).join("  ").trimEnd());
  }
}
