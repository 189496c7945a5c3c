import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { createLiveView } from "../../../minio-admin/live-view.js";
import { createTraceStats, followTrace, traceCapability, traceMatches } from "../../../minio-admin/trace-stats.js";

/**
 * `mc support top api ALIAS [--name N]… [--path P]… [--node H]… [--errors]`
 * (upstream cmd/support-top-api.go): MinIO's S3 call trace, summarized per
 * call (count, calls a minute, times, errors) and refreshed as calls come,
 * until Ctrl-C; see live-view.ts for terminal, piped and --json forms.
 */
export class SupportTopApiCommand extends BaseCommand {
  static override paths = [["support", "top", "api"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "summarize API events on MinIO server in real-time",
    examples: [
      ["Display current in-progress all S3 API calls", "$0 support top api myminio/"],
      ["Display current in-progress all 's3.PutObject' API calls", "$0 support top api --name s3.PutObject myminio/"],
      ["Only calls that fail, on one node", "$0 support top api --errors --node 10.0.0.5:9000 myminio/"],
    ],
  });
  name = Option.Array("--name", [], { description: "summarize current calls for matching API name" });
  pathFilter = Option.Array("--path", [], { description: "summarize current API calls only on matching path" });
  node = Option.Array("--node", [], { description: "summarize current API calls only on matching servers" });
  errors = Option.Boolean("-e,--errors", false, { description: "summarize current API calls throwing only errors" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support top api needs one TARGET.");
    const target = adminTarget(ctx, this.args[0]);
    const filter = { names: this.name, paths: this.pathFilter, nodes: this.node };
    const stats = createTraceStats();
    const view = createLiveView(ctx.output, () => stats.view());
    try {
      await followTrace(target.client, this.errors, (t) => {
        if (!traceMatches(filter, t)) return;
        stats.add(t);
        view.changed();
      });
    } catch (err) {
      // Ctrl-C ends the view as it is: the last state drawn, no error.
      view.flush();
      if (ctx.signal.aborted) return;
      throw adminFailure("Unable to fetch http trace statistics", traceCapability, err);
    }
    view.flush();
    throw mcError("Unable to fetch http trace statistics.", new Error("the server ended the trace stream"), "unavailable");
  }
}
