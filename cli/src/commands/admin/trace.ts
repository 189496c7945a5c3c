import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { runTrace } from "../../minio-admin/trace-run.js";

/** `mc admin trace` (upstream cmd/admin-trace.go). */
export class AdminTraceCommand extends BaseCommand {
  static override paths = [["admin", "trace"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "Show HTTP call trace for all incoming and internode on MinIO",
    details: "Follows the trace until Ctrl-C; --stats shows per-call statistics instead (piped: printed when the trace ends or at Ctrl-C), --in FILE those of traces saved with --json. CALL TYPES: batch-expiration (bexp), batch-keyrotation (brot), batch-replication (brep), bootstrap, decommission (decom), ftp, healing (heal), ilm, internal, os, rebalance, replication-resync (resync), s3, scanner, storage. --filter-size accepts k, m, g, t (metric) and ki, mi, gi, ti (IEC) suffixes, case-insensitive, with an optional b.",
    examples: [
      ["Show verbose console trace for MinIO server", "$0 admin trace -v -a myminio"],
      ["Show trace only for failed requests for MinIO server", "$0 admin trace -v -e myminio"],
      ["Show verbose console trace for requests with '503' status code", "$0 admin trace -v --status-code 503 myminio"],
      ["Show console trace for a specific path", "$0 admin trace --path my-bucket/my-prefix/* myminio"],
      ["Show trace only for requests bytes greater than 1MB", "$0 admin trace --filter-request --filter-size 1MB myminio"],
      ["Show trace only for requests operations duration greater than 5ms", "$0 admin trace --response-duration 5ms myminio"],
      ["Show per-call statistics of the S3 calls until Ctrl-C", "$0 admin trace --stats myminio"],
      ["Show the statistics of a trace saved earlier with --json", "$0 admin trace --in trace.json"],
    ],
  });
  verbose = Option.Boolean("-v,--verbose", false, { description: "print verbose trace" });
  all = Option.Boolean("-a,--all", false, { description: "trace all call types" });
  call = Option.Array("--call", [], { description: "trace only matching call types. See CALL TYPES below for list. (default: s3)" });
  statusCode = Option.Array("--status-code", [], { description: "trace only matching status code" });
  method = Option.Array("--method", [], { description: "trace only matching HTTP method" });
  funcname = Option.Array("--funcname", [], { description: "trace only matching func name" });
  pathFilter = Option.Array("--path", [], { description: "trace only matching path" });
  node = Option.Array("--node", [], { description: "trace only matching servers" });
  requestHeader = Option.Array("--request-header", [], { description: "trace only matching request headers" });
  requestQuery = Option.Array("--request-query", [], { description: "trace only matching request queries" });
  errors = Option.Boolean("-e,--errors", false, { description: "trace only failed requests" });
  stats = Option.Boolean("--stats", false, { description: "print statistical summary of all the traced calls" });
  statsN = Option.String("--stats-n", "20", { description: "maximum number of stat entries", hidden: true });
  filterRequest = Option.Boolean("--filter-request", false, { description: "trace calls only with request bytes greater than this threshold, use with filter-size" });
  filterResponse = Option.Boolean("--filter-response", false, { description: "trace calls only with response bytes greater than this threshold, use with filter-size" });
  responseDuration = Option.String("--response-duration", { description: "trace calls only with response duration greater than this threshold (e.g. `5ms`)" });
  filterSize = Option.String("--filter-size", { description: "filter size, use with filter (see UNITS)" });
  inFile = Option.String("--in", { description: "read previously saved json from file and replay" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runTrace(ctx, this.args, { verbose: this.verbose, all: this.all, call: this.call, statusCode: this.statusCode, method: this.method, funcname: this.funcname, path: this.pathFilter, node: this.node, requestHeader: this.requestHeader, requestQuery: this.requestQuery, errors: this.errors, filterRequest: this.filterRequest, filterResponse: this.filterResponse, responseDuration: this.responseDuration, filterSize: this.filterSize, stats: this.stats, statsN: this.statsN, ...(this.inFile === undefined ? {} : { in: this.inFile }) });
  }
}
