import type { AdminClient } from "./admin-client.js";
import { goDurationString, type JobMetric } from "./batch.js";
import { iBytes } from "../util/humanize.js";

/** madmin's MetricsBatchJobs bit of the metrics API's `types`. */
const metricsBatchJobs = 8;

interface RealtimeMetrics {
  readonly aggregated?: { readonly batchJobs?: { readonly Jobs?: Record<string, JobMetric> } | null };
  readonly final?: boolean;
}

/**
 * GET /metrics?types=8&n=0&interval=1s&hosts=&disks=&by-jobID=ID, as madmin's
 * Metrics streams it (one JSON object per line), calling `update` with the
 * job's metric until it completes or fails, leaves the answer, or the server
 * says final.
 */
export async function followJob(client: AdminClient, id: string, update: (m: JobMetric) => void): Promise<void> {
  let pending = "";
  let done = false;
  let bad: unknown;
  await client.request({
    method: "GET",
    path: "/metrics",
    query: { types: String(metricsBatchJobs), n: "0", interval: "1s", hosts: "", disks: "", "by-jobID": id },
    onChunk: (chunk, stop) => {
      if (done) return;
      pending += chunk.toString("utf8");
      let nl = pending.indexOf("\n");
      while (nl >= 0 && !done) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        nl = pending.indexOf("\n");
        if (line === "") continue;
        let m: RealtimeMetrics;
        try {
          m = JSON.parse(line) as RealtimeMetrics;
        } catch (err) {
          bad = new Error(`the metrics stream is damaged: ${(err as Error).message}`);
          done = true;
          break;
        }
        const job = m.aggregated?.batchJobs?.Jobs?.[id];
        if (job !== undefined) update(job);
        if (job === undefined || job.complete || job.failed || m.final === true) done = true;
      }
      if (done) stop();
    },
  });
  if (bad !== undefined) throw bad;
  // The answer ended before the job did (madmin's Metrics: io.ErrUnexpectedEOF).
  if (!done) throw new Error(pending.trim() !== "" ? "the metrics stream is damaged: it ends inside a record" : "unexpected EOF");
}

/** GET /status-job?jobId=ID (madmin v3 BatchJobStatus): the last metric of a job that ran. */
export async function jobStatus(client: AdminClient, jobId: string): Promise<JobMetric> {
  const r = await client.json<{ LastMetric?: JobMetric }>({ method: "GET", path: "/status-job", query: { jobId } });
  if (r.LastMetric === undefined) throw new Error("no job status in the answer");
  return r.LastMetric;
}

/** upstream renderBatchJobMetrics, `Prefix:  value` lines (the prefix's own space, then one more). */
export function renderJobMetric(m: JobMetric): string {
  const lines: string[] = [];
  const add = (prefix: string, value: string | number): number => lines.push(`${prefix} ${value}`);
  if (m.jobType === "replicate" && m.replicate) {
    const r = m.replicate;
    const elapsedMs = Date.parse(m.lastUpdate) - Date.parse(m.startTime);
    add("JobType: ", m.jobType);
    add("Objects: ", r.objects);
    add("FailedObjects: ", r.objectsFailed);
    if (elapsedMs > 0) {
      add("Throughput: ", `${iBytes(Math.floor(r.bytesTransferred / (elapsedMs / 1000)))}/s`);
      add("IOPs: ", `${((r.objects * 1000) / elapsedMs).toFixed(2)} objs/s`);
    }
    add("Transferred: ", iBytes(r.bytesTransferred));
    add("Elapsed: ", goDurationString(Number.isNaN(elapsedMs) ? 0 : elapsedMs));
    add("CurrObjName: ", r.lastObject);
  } else {
    add("JobType: ", m.jobType);
  }
  return lines.join("\n");
}
