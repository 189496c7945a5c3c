import { setTimeout as sleep } from "node:timers/promises";
import { Command, Option } from "clipanion";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { KmsCommand } from "../../../kms/kms-command.js";
import { metricsLines, summarizeMetrics, type MetricsSnapshot } from "../../../kms/kms-metrics.js";

/**
 * `mc admin kms metrics ALIAS [--once] [--interval SECONDS]`: a live view of
 * the node's metrics (`/v1/health/metrics`), refreshed until Ctrl-C; on a
 * terminal the view redraws in place, otherwise each refresh is appended
 * (one JSON object per refresh with --json). `--once` prints one and exits.
 */
export class AdminKmsMetricsCommand extends KmsCommand {
  static override paths = [["admin", "kms", "metrics"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show a live view of a KMS node's metrics",
    examples: [
      ["Watch a KMS node's metrics, refreshed until Ctrl-C.", "$0 admin kms metrics mykms"],
      ["Refresh every 10 seconds.", "$0 admin kms metrics --interval 10 mykms"],
      ["Take one snapshot as JSON, for a script.", "$0 admin kms metrics --once --json mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });
  once = Option.Boolean("--once", { description: "print one snapshot and exit" });
  interval = Option.String("--interval", { description: "seconds between refreshes (default 1)" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName] = this.positional(this.args, "ALIAS", 1);
    const seconds = Number(this.interval ?? "1");
    if (!Number.isFinite(seconds) || seconds <= 0) throw usageError("--interval must be a positive number of seconds.");
    const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
    await this.withKms(ctx, aliasName, "Failed to read the KMS metrics.", async ({ client }, alias) => {
      let previous: { at: number; m: MetricsSnapshot } | undefined;
      while (!ctx.signal.aborted) {
        const res = await client.send("GET", "/v1/health/metrics");
        if (res.status !== 200) throw mcError(`Failed to read the KMS metrics of alias \`${alias.name}\`: HTTP ${res.status}.`);
        const m = summarizeMetrics(res.body.toString("utf8"));
        const at = Date.now();
        const rate = previous === undefined ? undefined : ((m.requests.total - previous.m.requests.total) * 1000) / Math.max(1, at - previous.at);
        previous = { at, m };
        if (ctx.output.json) ctx.output.printJson({ status: "success", endpoint: alias.url, time: new Date(at).toISOString(), ...m, ...(rate === undefined ? {} : { requestRate: rate }) });
        else ctx.output.stdout.write(`${tty && this.once !== true ? "\x1b[H\x1b[2J" : ""}${metricsLines(alias.url, m, rate).join("\n")}\n`);
        if (this.once === true) break;
        await sleep(seconds * 1000, undefined, { signal: ctx.signal }).catch(() => undefined);
      }
    });
    return 0;
  }
}
