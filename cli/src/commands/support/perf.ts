import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { parseDuration, parseSize } from "../../util/humanize.js";
import { zipArchive } from "../../util/zip-writer.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { registrationInfo } from "../../minio-admin/license.js";
import { goJson, reportStamp, saveReport } from "../../minio-admin/local-report.js";
import { clientOutput, clientPerf, drivePerf, driveOutput, netOutput, netPerf, objectOutput, objectPerf, perfCapability, siteOutput, sitePerf } from "../../minio-admin/perf.js";
import { clientView, driveView, netView, objectView, siteView } from "../../minio-admin/perf-view.js";

const kinds = ["net", "drive", "object", "client", "site-replication"] as const;
type Kind = (typeof kinds)[number];
/** What runs without a test named (current upstream adds the client test; site replication only when asked). */
const defaults: readonly Kind[] = ["net", "drive", "object", "client"];

/**
 * `mc support perf [net|drive|object|client|site-replication] ALIAS`
 * (upstream cmd/support-perf*.go) in air-gapped mode, always: the server
 * runs its network, drive and object speed tests (madmin Netperf,
 * DriveSpeedtest, Speedtest), this client uploads to it (madmin v3
 * ClientPerf) and site replication peers measure their links (madmin v3
 * SiteReplicationPerf; only when named); each result is
 * shown as upstream's final view, then saved with the cluster's registration
 * info as `ALIAS-perf_<UTC time>.zip` for a person to upload to SUBNET.
 * `--json` prints each result instead and saves nothing, as upstream.
 */
export class SupportPerfCommand extends BaseCommand {
  static override paths = [["support", "perf"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "object, network, drive and client performance analysis (offline: saved to ./ALIAS-perf_TIME.zip)",
    examples: [
      ["Run object storage, network, drive and client performance tests on cluster with alias 'myminio' and save the report", "$0 support perf myminio"],
      ["Run only the drive test, printing the result as JSON", "$0 support perf drive myminio --json"],
      ["Run the object test with 16 MiB objects, per-server figures shown", "$0 support perf object myminio --size 16MiB --verbose"],
      ["Measure the upload speed from this client to the cluster", "$0 support perf client myminio"],
      ["Measure the links between the site replication peers of 'myminio'", "$0 support perf site-replication myminio"],
    ],
  });
  duration = Option.String("--duration", "10s", { description: "maximum duration each perf tests are run", hidden: true });
  verbose = Option.Boolean("-v,--verbose", false, { description: "display per-server stats" });
  size = Option.String("--size", "64MiB", { description: "size of the object used for uploads/downloads" });
  concurrent = Option.String("--concurrent", { description: "number of concurrent requests per server (default 32, tuned by the server unless given)", hidden: true });
  bucket = Option.String("--bucket", "", { description: "provide a custom bucket name to use (NOTE: bucket must be created prior)", hidden: true });
  noclear = Option.Boolean("--noclear", false, { description: "do not clear bucket after running object perf test", hidden: true });
  filesize = Option.String("--filesize", "1GiB", { description: "total amount of data read/written to each drive", hidden: true });
  blocksize = Option.String("--blocksize", "4MiB", { description: "read/write block size", hidden: true });
  serial = Option.Boolean("--serial", false, { description: "run tests on drive(s) one-by-one", hidden: true });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  apiKey = Option.String("--api-key", { hidden: true });
  args = Option.Rest({ name: "[net|drive|object|client|site-replication] ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length < 1 || this.args.length > 2) throw usageError("support perf needs [net|drive|object|client|site-replication] and ALIAS.");
    const [first = "", second] = this.args;
    if (second === undefined && (kinds as readonly string[]).includes(first)) throw usageError(`support perf ${first} needs an ALIAS.`);
    if (second !== undefined && !(kinds as readonly string[]).includes(first)) throw usageError(`unknown performance test \`${first}\`; use net, drive, object, client or site-replication.`);
    if (this.apiKey !== undefined) throw mcError("Invalid flags.", new Error("--api-key is not applicable in airgap mode"), "invalid_argument");
    const tests: Kind[] = second === undefined ? [...defaults] : [first as Kind];
    const durationMs = parseDuration(this.duration);
    if (durationMs === undefined || durationMs <= 0) throw mcError("Unable to parse duration.", new Error(`invalid duration \`${this.duration}\``), "invalid_argument");
    const bytes = (flag: string, v: string): number => {
      const n = parseSize(v);
      if (n === undefined || n <= 0) throw mcError(`Unable to parse ${flag}.`, new Error(`invalid size \`${v}\``), "invalid_argument");
      return n;
    };
    const size = bytes("object size", this.size);
    const fileSize = bytes("filesize", this.filesize);
    const blockSize = bytes("blocksize", this.blocksize);
    const concurrent = this.concurrent === undefined ? 32 : Number(this.concurrent);
    if (!Number.isInteger(concurrent) || concurrent <= 0) throw mcError("concurrency cannot be '0' or negative.", undefined, "invalid_argument");
    const target = adminTarget(ctx, second ?? first);
    const fail = (err: unknown): never => {
      if (ctx.signal.aborted) throw err;
      throw adminFailure("Unable to run the performance test", perfCapability, err);
    };
    const report: Record<string, unknown> = {};
    for (const t of tests) {
      let out: Record<string, unknown>;
      let view: string;
      if (t === "net") {
        const r = await netPerf(target.client, durationMs).catch(fail);
        [out, view] = [{ network: netOutput(r) }, netView(r)];
      } else if (t === "drive") {
        const r = await drivePerf(target.client, { serial: this.serial, blockSize, fileSize }).catch(fail);
        [out, view] = [{ drive: driveOutput(r) }, driveView(r)];
      } else if (t === "object") {
        const r = await objectPerf(target.client, { size, durationMs, concurrent, autotune: this.concurrent === undefined, bucket: this.bucket, noClear: this.noclear }).catch(fail);
        [out, view] = [{ object: objectOutput(r) }, objectView(r, this.verbose)];
      } else if (t === "client") {
        const r = await clientPerf(target.client, durationMs, ctx.signal).catch(fail);
        [out, view] = [{ client: clientOutput(r) }, clientView(r)];
      } else {
        const r = await sitePerf(target.client, durationMs).catch(fail);
        [out, view] = [{ siteReplication: siteOutput(r) }, siteView(r)];
      }
      Object.assign(report, out);
      if (ctx.output.json) ctx.output.printJson(out);
      else ctx.output.stdout.write(view);
    }
    // No file with --json, as upstream.
    if (ctx.output.json) return;
    const info = await target.client.json<Record<string, unknown>>({ method: "GET", path: "/info" }).catch(fail);
    const prefix = `${target.alias.name}-perf_${reportStamp(new Date())}`;
    // upstream's report: the results in the PerfTestOutput order, then cluster.info.
    const ordered = Object.fromEntries(["object", "network", "siteReplication", "drive", "client"].filter((k) => k in report).map((k) => [k, report[k]]));
    const zip = zipArchive([
      { name: `${prefix}.json`, data: Buffer.from(goJson(ordered)) },
      { name: "cluster.info", data: Buffer.from(goJson(registrationInfo(info, target.alias.name))) },
    ]);
    await saveReport(`${prefix}.zip`, zip).catch((err: unknown) => {
      throw mcError(`Unable to save the performance report ${prefix}.zip.`, err, "unavailable");
    });
    ctx.output.line(`\nMinIO performance report saved at ${prefix}.zip, please upload to SUBNET portal manually`);
  }
}
