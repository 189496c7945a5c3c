import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { replicationDiff, replicationMrf, type DiffInfo } from "../../minio-admin/replication-backlog.js";

const cell = (s: string, w: number): string => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
const row = (cells: readonly string[], widths: readonly number[]): string => cells.map((c, i) => ` ${cell(c, widths[i] ?? 0)} `).join("").trimEnd();
/** upstream's printDate layout (`2006-01-02 15:04:05 MST`) of a UTC time, as the server sends them. */
const printDate = (iso: string | undefined): string => {
  const t = Date.parse(iso ?? "");
  const d = Number.isNaN(t) ? new Date(Date.UTC(1, 0, 1)) : new Date(t);
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
};

/**
 * `mc replicate backlog ALIAS/BUCKET[/PREFIX]` (upstream cmd/replicate-backlog.go):
 * the most recent replication failures (madmin v3 replication/mrf), or with
 * `--full` every unreplicated version (replication/diff). Upstream shows them
 * in an interactive table; ours prints the summary and the rows once.
 */
export class ReplicateBacklogCommand extends BaseCommand {
  static override paths = [["replicate", "backlog"], ["replicate", "diff"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show unreplicated object versions",
    examples: [
      ["Show the latest replication failures of a bucket.", "$0 replicate backlog myminio/mybucket"],
      ["Show every unreplicated version under a prefix.", "$0 replicate backlog --full myminio/mybucket/docs/"],
      ["Show the backlog of one remote target, with details.", "$0 replicate backlog --arn \"arn:minio:replication::8d2b4a:mybucket\" --verbose myminio/mybucket"],
    ],
  });
  arn = Option.String("--arn", { description: "unique role ARN" });
  verbose = Option.Boolean("-v,--verbose", false, { description: "include replicated versions" });
  nodes = Option.String("-n,--nodes", { description: "show most recent failures for one or more nodes. Valid values are 'all', or node name (default: \"all\")" });
  full = Option.Boolean("-a,--full", false, { description: "list and show all replication failures for bucket" });
  args = Option.Rest({ name: "ALIAS/BUCKET[/PREFIX]" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate backlog needs one ALIAS/BUCKET[/PREFIX].");
    const arg = this.args[0] ?? "";
    const [, bucket = "", ...rest] = arg.split("/");
    if (bucket === "") throw mcError(`bucket not specified in \`${arg}\`.`, undefined, "invalid_argument");
    const target = adminTarget(ctx, `${arg.split("/")[0] ?? ""}/${bucket}`, true);
    if (!this.full) {
      const mrf = await replicationMrf(target.client, bucket, this.nodes ?? "all").catch((err: unknown) => {
        throw replicateFailure("Unable to fetch replication backlog", err);
      });
      const bad = mrf.find((m) => m.error);
      if (bad) throw mcError("Unable to fetch replication backlog.", new Error(bad.error), "failed_precondition");
      if (ctx.output.json) return mrf.forEach((m) => ctx.output.printJson({ op: "mrf", status: "success", ...m }));
      const rows = mrf.filter((m) => m.object).map((m) => [m.nodeName ?? "", m.versionId ?? "", String(m.retryCount ?? 0), `${m.bucket ?? ""}/${m.object ?? ""}`.replace(/^\//, "")]);
      return this.print(ctx, ["Node", "VersionID", "Retry", "Object"], [40, 36, 5, 60], rows);
    }
    const diff = await replicationDiff(target.client, bucket, { verbose: this.verbose, arn: this.arn ?? "", prefix: rest.join("/") }).catch((err: unknown) => {
      throw replicateFailure("Unable to fetch replication backlog", err);
    });
    if (ctx.output.json) return diff.forEach((d) => ctx.output.printJson(d));
    const rows = diff.filter((d) => d.object).map((d) => this.diffRow(d));
    this.print(ctx, ["Attempted At", "Created", "Status", "VersionID", "Op", "Object"], [23, 23, 9, 36, 3, 60], rows);
  }

  private diffRow(d: DiffInfo): string[] {
    const op = d.versionId ? (d.deletemarker === true ? "DEL" : "PUT") : "";
    let st = d.dStatus || d.rStatus || "";
    if (this.arn) {
      const t = d.targets?.[this.arn];
      st = t ? t.drStatus || t.rStatus || "" : "";
    }
    const attempted = st === "PENDING" || op === "DEL" ? "" : printDate(d.replTimestamp);
    return [attempted, printDate(d.lastModified), st, d.versionId ?? "", op, d.object ?? ""];
  }

  private print(ctx: McContext, headers: readonly string[], widths: readonly number[], rows: readonly string[][]): void {
    if (rows.length === 0) return;
    ctx.output.line(["Unreplicated versions summary", `Total Unreplicated: ${rows.length}`, "", row(headers, widths), ...rows.map((r) => row(r, widths))].join("\n"));
  }
}
