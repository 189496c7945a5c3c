import type { AdminClient } from "./admin-client.js";

export interface BatchJobResult {
  readonly id: string;
  readonly type: string;
  readonly user?: string;
  readonly started: string;
  readonly elapsed?: number;
}

/** POST /start-job with the YAML as is (not encrypted; the server parses it). */
export async function startBatchJob(client: AdminClient, yaml: Uint8Array): Promise<BatchJobResult> {
  return client.json<BatchJobResult>({ method: "POST", path: "/start-job", body: yaml });
}

/** GET /list-jobs?jobType=T. */
export async function listBatchJobs(client: AdminClient, jobType: string): Promise<BatchJobResult[]> {
  const r = await client.json<{ jobs?: BatchJobResult[] | null }>({ method: "GET", path: "/list-jobs", query: { jobType } });
  return Array.isArray(r.jobs) ? r.jobs : [];
}

/** GET /describe-job?jobId=ID: the job's YAML. */
export async function describeBatchJob(client: AdminClient, jobId: string): Promise<string> {
  return (await client.request({ method: "GET", path: "/describe-job", query: { jobId } })).body.toString("utf8");
}

/** DELETE /cancel-job?id=ID (204; madmin v3 CancelBatchJob, not in v2.0.7). */
export async function cancelBatchJob(client: AdminClient, id: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/cancel-job", query: { id }, expect: [204] });
}

export interface JobMetric {
  jobID: string;
  jobType: string;
  startTime: string;
  lastUpdate: string;
  retryAttempts: number;
  complete: boolean;
  failed: boolean;
  replicate?: { lastBucket: string; lastObject: string; objects: number; objectsFailed: number; bytesTransferred: number; bytesFailed: number };
}

/** Go time.Duration String() of a span in milliseconds (`1m30s`, `2h0m5.5s`, `350ms`). */
export function goDurationString(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  const a = Math.abs(ms);
  if (a < 1000) return `${sign}${a}ms`;
  const h = Math.floor(a / 3_600_000);
  const m = Math.floor((a % 3_600_000) / 60_000);
  const rest = a % 60_000;
  const s = `${Math.floor(rest / 1000)}${rest % 1000 ? `.${String(rest % 1000).padStart(3, "0").replace(/0+$/, "")}` : ""}s`;
  return `${sign}${h > 0 ? `${h}h${m}m` : m > 0 ? `${m}m` : ""}${s}`;
}
