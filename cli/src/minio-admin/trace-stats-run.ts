import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { followJson } from "./json-stream.js";
import { createLiveView } from "./live-view.js";
import { replayLines } from "./replay-input.js";
import { createCallStats } from "./trace-call-stats.js";
import { toTraceInfo, type TraceInfo } from "./trace-format.js";
import type { Matcher, TraceFlags } from "./trace-run.js";

/** Also named in trace-run.ts (one capability, one wording). */
const capability = "Tracing the server's calls";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * `mc admin trace --stats` and `--in FILE` (upstream cmd/admin-trace.go):
 * per-call statistics of the calls that pass the filters. On a terminal the
 * table is redrawn as calls come; piped, or with --json, it is printed once,
 * when the stream ends (then the stream's end is the error it is for a
 * trace), at Ctrl-C, or at the end of the replayed file. --in replays the
 * short records `admin trace --json` printed (bootstrap ones skipped, as
 * their times skew the averages) and needs no server.
 */
export async function runTraceStats(ctx: McContext, alias: string | undefined, f: TraceFlags, query: Record<string, string>, matches: Matcher): Promise<void> {
  const maxEntries = Number(f.statsN ?? "20");
  if (!Number.isInteger(maxEntries)) throw usageError(`invalid value "${f.statsN ?? ""}" for flag -stats-n.`);
  const stats = createCallStats();
  let seen = 0;
  const render = (): { text: string; json: unknown } => ({ text: stats.view(f.all, maxEntries), json: stats.json() });
  const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true && !ctx.output.json;
  const live = tty ? createLiveView(ctx.output, render) : undefined;
  const add = (t: TraceInfo, bytes: number): void => {
    if (!matches(t)) return;
    seen++;
    stats.add({ ...t, bytes });
    live?.changed();
  };
  const final = (): void => {
    if (live) {
      live.changed();
      live.flush();
    } else if (ctx.output.json) ctx.output.printJson(stats.json());
    else ctx.output.stdout.write(`${render().text}\n`);
  };
  if ((f.in ?? "") !== "") {
    await replayLines(f.in ?? "", ctx.signal, (r) => {
      if (r["type"] === "Bootstrap") return;
      // The short record of `--json` (upstream shortTraceMsg): no HTTP details, its type not kept.
      const t: TraceInfo = { type: 0, nodename: str(r["host"]), funcname: str(r["api"]), time: str(r["time"]), path: str(r["path"]), dur: num(r["duration"]) };
      if (str(r["error"])) t.error = str(r["error"]);
      add(t, num(r["size"]));
    });
    final();
    return;
  }
  const target = adminTarget(ctx, alias);
  await followJson(target.client, { method: "GET", path: "/trace", query }, (raw) => {
    add(toTraceInfo(raw), num((raw as Record<string, unknown> | null)?.["bytes"]));
  }).catch((err: unknown) => {
    if (ctx.signal.aborted) return;
    // The table so far, then why it stops (a server without the API sent nothing: no table).
    if (seen > 0) final();
    throw adminFailure("Unable to fetch http trace statistics", capability, err);
  });
  final();
  if (ctx.signal.aborted) return;
  throw mcError("Unable to fetch http trace statistics.", new Error("EOF"), "unavailable");
}
