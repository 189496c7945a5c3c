import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { parseSerdeOptions, type SelectFormat, type SelectSpec } from "../storage/s3/select/select-request.js";
import { runSelect } from "../storage/s3/select/select-run.js";
import { parseSseFlags, sseReadHeaders } from "../storage/s3/sse/sse-keys.js";
import { bucketTarget } from "../storage/s3/target.js";
import { listS3 } from "../storage/s3/s3-list.js";

const compressions = ["NONE", "GZIP", "BZIP2"] as const;

export class SqlCommand extends BaseCommand {
  static override paths = [["sql"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "run SQL queries on objects (S3 Select)",
    details: "The records are printed as they arrive; with --json a final line carries the query statistics. The SQL dialect is the server's: Ceph Pacific reads `from stdin`.",
    examples: [
      ["Select every row of a CSV object with a header line.", "$0 sql --query \"select * from S3Object\" myalias/mybucket/data.csv"],
      ["Select a few columns with a condition.", "$0 sql --query \"select s.name, s.city from S3Object s where s.age > '30'\" myalias/mybucket/people.csv"],
      ["Query JSON lines.", "$0 sql --json-input \"t=lines\" --query \"select s.name from S3Object s\" myalias/mybucket/data.json"],
      ["Query a gzip-compressed CSV and answer in JSON.", "$0 sql --compression GZIP --json-output \"rd=\\n\" --query \"select * from S3Object\" myalias/mybucket/data.csv.gz"],
      ["Read a CSV without a header and with semicolons.", "$0 sql --csv-input \"fh=none,fd=;\" --query \"select s._1, s._3 from S3Object s\" myalias/mybucket/export.csv"],
      ["Query every object under a prefix, printing a header line first.", "$0 sql --recursive --csv-output-header \"name,city\" --query \"select s.name, s.city from S3Object s\" myalias/mybucket/people/"],
      ["Query a Parquet object.", "$0 sql --parquet-input --query \"select count(*) from S3Object\" myalias/mybucket/table.parquet"],
    ],
  });
  query = Option.String("-e,--query", "select * from S3Object", { description: "SQL expression" });
  csvInput = Option.String("--csv-input", { description: "CSV input options: rd, fd, qc, qec, cc, fh (e.g. 'fh=USE,fd=;')" });
  jsonInput = Option.String("--json-input", { description: "JSON input options: t=lines|document" });
  parquetInput = Option.Boolean("--parquet-input", false, { description: "the object is Parquet" });
  compression = Option.String("--compression", { description: "input compression: NONE, GZIP, BZIP2 (default from the name)" });
  csvOutput = Option.String("--csv-output", { description: "CSV output options: rd, fd, qc" });
  jsonOutput = Option.String("--json-output", { description: "JSON output options: rd" });
  csvOutputHeader = Option.String("--csv-output-header", { description: "optional CSV output header line, printed before the records" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "run the query on every object under the prefix" });
  encC = Option.Array("--enc-c", { description: "decrypt the object with a client provided key (\"alias/prefix=KEY\")" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<number> {
    if (this.args.length !== 1) throw usageError("sql needs one TARGET (alias/bucket/object).");
    const target = bucketTarget(ctx, this.args[0], "sql", true);
    if (!this.recursive && (target.key === "" || target.key.endsWith("/"))) throw usageError("sql needs an object (alias/bucket/object), not a bucket or prefix; use --recursive for every object under it.");
    if (this.csvOutputHeader !== undefined) {
      if (this.jsonOutput !== undefined) throw usageError("--csv-output-header goes with CSV output, not --json-output.");
      if (/[\r\n]/.test(this.csvOutputHeader)) throw usageError("--csv-output-header is one line.");
    }
    const keys: string[] = [];
    if (!this.recursive) keys.push(target.key);
    else for await (const e of listS3(target.client, target.bucket, target.key, { recursive: true })) if (!e.isDir) keys.push(e.key);
    if (keys.length === 0) throw mcError(`Unable to find any object under \`${target.url}/${target.key}\`.`, undefined, "not_found");
    let failed = 0;
    for (const key of keys) {
      const spec = this.spec(key);
      const url = `${target.url}/${key}`;
      // The header line comes once, before the first records, and only for CSV output.
      if (this.csvOutputHeader !== undefined && key === keys[0] && spec.outputFormat === "csv") ctx.output.stdout.write(`${this.csvOutputHeader}${spec.output["rd"] ?? "\n"}`);
      const sse = parseSseFlags(this.encC ?? [], [], new Set(ctx.aliases.keys()))?.forUrl(url);
      try {
        const stats = await runSelect(target.client, target.bucket, key, url, spec, ctx.output.stdout, sse ? sseReadHeaders(sse) : {});
        if (ctx.output.json) ctx.output.printJson({ status: "success", ...stats });
      } catch (err) {
        const e = isAppError(err) ? err : mcError(`Unable to run the SQL query on \`${url}\`.`, err);
        if (!this.recursive) throw e;
        ctx.output.error(e);
        failed++;
      }
    }
    return failed > 0 ? 1 : 0;
  }

  private spec(key: string): SelectSpec {
    const given = [this.csvInput, this.jsonInput, this.parquetInput ? "" : undefined].filter((v) => v !== undefined).length;
    if (given > 1) throw usageError("use only one of --csv-input, --json-input and --parquet-input.");
    if (this.csvOutput !== undefined && this.jsonOutput !== undefined) throw usageError("use only one of --csv-output and --json-output.");
    const lower = key.toLowerCase();
    const bare = lower.replace(/\.(gz|bz2)$/, "");
    const inputFormat: SelectFormat =
      this.csvInput !== undefined ? "csv" : this.jsonInput !== undefined ? "json" : this.parquetInput || bare.endsWith(".parquet") ? "parquet" : /\.(json|jsonl|ndjson)$/.test(bare) ? "json" : "csv";
    const input =
      this.csvInput !== undefined
        ? parseSerdeOptions("--csv-input", this.csvInput, ["rd", "fd", "qc", "qec", "cc", "fh"])
        : this.jsonInput !== undefined
          ? parseSerdeOptions("--json-input", this.jsonInput, ["t"])
          : {};
    const compression = (this.compression ?? (lower.endsWith(".gz") ? "GZIP" : lower.endsWith(".bz2") ? "BZIP2" : "NONE")).toUpperCase();
    if (!(compressions as readonly string[]).includes(compression)) throw usageError(`--compression must be NONE, GZIP or BZIP2, not \`${this.compression ?? ""}\`.`);
    const outputFormat = this.jsonOutput !== undefined ? "json" : this.csvOutput !== undefined ? "csv" : inputFormat === "json" ? "json" : "csv";
    const output =
      this.csvOutput !== undefined ? parseSerdeOptions("--csv-output", this.csvOutput, ["rd", "fd", "qc"]) : this.jsonOutput !== undefined ? parseSerdeOptions("--json-output", this.jsonOutput, ["rd"]) : {};
    return { query: this.query, inputFormat, input, compression: compression as SelectSpec["compression"], outputFormat, output };
  }
}
