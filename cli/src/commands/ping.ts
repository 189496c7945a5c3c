import { setTimeout as delay } from "node:timers/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { pingNodes, pingRound, printRound } from "../helpers/ping-nodes.js";
import { adminTarget } from "../minio-admin/admin-target.js";

const ms = (v: number): string => `${v.toFixed(2)}ms`;

export class PingCommand extends BaseCommand {
  static override paths = [["ping"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "perform liveness check",
    examples: [
      ["Check that a server answers, once a second until Ctrl-C.", "$0 ping myalias"],
      ["Ping three times.", "$0 ping --count 3 myalias"],
      ["Ping every 5 seconds and stop at the first error.", "$0 ping --interval 5 --exit myalias"],
      ["Stop after 3 errors in a row.", "$0 ping --error-count 3 myalias"],
      ["Ping every node of a cluster.", "$0 ping --distributed myalias"],
    ],
  });
  count = Option.String("-c,--count", { description: "perform liveness check for COUNT number of times" });
  errorCount = Option.String("-e,--error-count", { description: "exit after N consecutive ping errors" });
  exitOnFail = Option.Boolean("-x,--exit", false, { description: "exit when server(s) responds and reports being online" });
  interval = Option.String("-i,--interval", "1", { description: "wait interval (seconds) between each request" });
  distributed = Option.Boolean("-a,--distributed", false, { description: "ping all the servers in the cluster, use it when you have direct access to nodes/pods" });
  node = Option.String("--node", { description: "ping the specified node" });
  targets = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length !== 1) throw usageError("ping needs one ALIAS.");
    if (this.distributed || this.node !== undefined) return this.runNodes(ctx);
    const loc = ctx.locate(this.targets[0] ?? "");
    if (loc.kind !== "s3") throw usageError(`\`${this.targets[0] ?? ""}\` is not an alias.`);
    const url = new URL(loc.alias.url);
    const count = this.count === undefined ? Infinity : Number(this.count);
    const interval = Number(this.interval) * 1000;
    const times: number[] = [];
    let errors = 0;
    let consecutive = 0;
    for (let round = 1; round <= count && !ctx.signal.aborted; round++) {
      const started = performance.now();
      let error: string | undefined;
      try {
        const res = await fetch(`${url.origin}/`, { method: "HEAD", signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(10000)]) });
        await res.body?.cancel();
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const took = performance.now() - started;
      if (error) {
        errors++;
        consecutive++;
      } else {
        consecutive = 0;
        times.push(took);
      }
      const min = times.length ? Math.min(...times) : 0;
      const max = times.length ? Math.max(...times) : 0;
      const avg = times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0;
      const endpoint = `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
      const server: Record<string, unknown> = {
        endpoint: { Scheme: url.protocol.replace(":", ""), Host: url.host, Path: "" },
        dns: "0ms",
        status: error ? "failed" : "ok ",
      };
      if (error) server["error"] = error;
      server["time"] = `${ms(took)}  `;
      ctx.output.result(
        { status: "success", counter: String(round).padStart(3), servers: [server] },
        `${String(round).padStart(3)}: ${endpoint}`.padEnd(40) + ` min=${ms(min)} max=${ms(max)} average=${ms(avg)} errors=${errors} roundtrip=${ms(took)}`,
      );
      if (this.errorCount !== undefined && consecutive >= Number(this.errorCount)) return 1;
      if (this.exitOnFail && !error) return 0;
      if (round < count) await delay(interval, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    return errors > 0 && times.length === 0 ? 1 : 0;
  }

  /** `--distributed` / `--node`: the nodes from MinIO's admin info, each asked /minio/health/live every round (upstream cmd/ping.go). */
  private async runNodes(ctx: McContext): Promise<number> {
    const arg = this.targets[0] ?? "";
    const target = adminTarget(ctx, arg);
    const nodes = await pingNodes(target.client, arg, this.node);
    if (nodes.length === 0) throw usageError(`\`${arg}\` lists no nodes.`);
    const count = this.count === undefined ? Infinity : Number(this.count);
    let consecutive = 0;
    let anyOnline = false;
    for (let round = 1; round <= count && !ctx.signal.aborted; round++) {
      const results = await pingRound(target.client, nodes);
      printRound(ctx, round, results);
      const allOnline = results.every((r) => r.online);
      anyOnline ||= results.some((r) => r.online);
      consecutive = allOnline ? 0 : consecutive + 1;
      if (this.errorCount !== undefined && consecutive >= Number(this.errorCount)) return 1;
      if (this.exitOnFail && allOnline) return 0;
      if (round < count) await delay(Number(this.interval) * 1000, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    return anyOnline ? 0 : 1;
  }
}
