import { isAppError } from "@mc/shared";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { getLifecycle, type Json, type JsonObject } from "../../../storage/s3/bucket/lifecycle.js";
import { ruleFilter } from "../../../storage/s3/bucket/lifecycle-rule.js";
import { bucketTarget } from "../../../storage/s3/target.js";

const field = (v: Json | undefined, name: string): string => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "";
  const x = v[name];
  return x === undefined || x === null ? "" : String(x);
};

/** One table row per rule: what it matches and what it does. */
function describe(rule: JsonObject): string[] {
  const { prefix, tags } = ruleFilter(rule);
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
  ];
}

export class IlmRuleListCommand extends BaseCommand {
  static override paths = [["ilm", "rule", "list"], ["ilm", "rule", "ls"]];
  static override usage = Command.Usage({ category: "Bucket configuration", description: "list the lifecycle rules of a bucket", examples: [["List rules", "$0 ilm rule ls myminio/bucket"]] });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("ilm rule list needs one TARGET (alias/bucket).");
    const target = bucketTarget(ctx, this.args[0], "ilm rule list");
    const config = await getLifecycle(target.client, target.bucket).catch((err: unknown) => {
      throw isAppError(err) ? err : mcError(`Unable to get the lifecycle configuration of \`${target.url}\`.`, err);
    });
    if (ctx.output.json) {
      ctx.output.printJson({ status: "success", target: target.url, config });
      return;
    }
    if (config.Rules.length === 0) {
      ctx.output.line(`No lifecycle rules on \`${target.url}\`.`);
      return;
    }
    const rows = [["ID", "STATUS", "PREFIX", "TAGS", "EXPIRY", "NONCURRENT EXPIRY", "TRANSITION", "NONCURRENT TRANSITION"], ...config.Rules.map(describe)];
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length))) ?? [];
    for (const row of rows) ctx.output.line(row.map((cell, i) => cell + " ".repeat((widths[i] ?? 0) - [...cell].length)).join("  ").trimEnd());
  }
}
