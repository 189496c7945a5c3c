import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runTrace } from "../../../minio-admin/trace-run.js";

/**
 * `mc admin scanner trace` (upstream cmd/admin-scanner-trace.go): `admin
 * trace` of the scanner's calls only, with its filters. --response-duration
 * takes a duration here as its help says (upstream declares it a switch, so
 * its threshold is always 0 there).
 */
export class AdminScannerTraceCommand extends BaseCommand {
  static override paths = [["admin", "scanner", "trace"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show trace for MinIO scanner operations",
    details: "--filter-size flags use with --filter-response or --filter-request accept k, m, g, t (metric) and ki, mi, gi, ti (IEC) suffixes, case-insensitive, with an optional b.",
    examples: [
      ["Show scanner trace for MinIO server", "$0 admin scanner trace myminio"],
      ["Show scanner trace for a specific path", "$0 admin scanner trace --path my-bucket/my-prefix/* myminio"],
      ["Show trace for only ScanObject operations", "$0 admin scanner trace --funcname=scanner.ScanObject myminio"],
      ["Show trace only for ScanObject operations request bytes greater than 1MB", "$0 admin scanner trace --filter-request --filter-size 1MB myminio"],
    ],
  });
  verbose = Option.Boolean("-v,--verbose", false, { description: "print verbose trace" });
  funcname = Option.Array("--funcname", [], { description: "trace only matching func name (eg 'scanner.ScanObject')" });
  node = Option.Array("--node", [], { description: "trace only matching servers" });
  pathFilter = Option.Array("--path", [], { description: "trace only matching path" });
  filterRequest = Option.Boolean("--filter-request", false, { description: "trace calls only with request bytes greater than this threshold, use with filter-size" });
  filterResponse = Option.Boolean("--filter-response", false, { description: "trace calls only with response bytes greater than this threshold, use with filter-size" });
  responseDuration = Option.String("--response-duration", { description: "trace calls only with response duration greater than this threshold (e.g. `5ms`)" });
  filterSize = Option.String("--filter-size", { description: "filter size, use with filter (see UNITS)" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    const none: readonly string[] = [];
    await runTrace(ctx, this.args, { verbose: this.verbose, all: false, call: ["scanner"], statusCode: none, method: none, funcname: this.funcname, path: this.pathFilter, node: this.node, requestHeader: none, requestQuery: none, errors: false, filterRequest: this.filterRequest, filterResponse: this.filterResponse, responseDuration: this.responseDuration, filterSize: this.filterSize });
  }
}
