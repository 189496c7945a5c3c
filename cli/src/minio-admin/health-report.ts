import { gzipSync } from "node:zlib";
import type { AdminClient } from "./admin-client.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const diagCapability = "Collecting the cluster's diagnostics";

/** madmin-go v3 `HealthDataTypesList` (current upstream; v2.0.7's list differs). */
export const healthDataTypes = ["minioinfo", "minioconfig", "syscpu", "sysdrivehw", "sysosinfo", "sysmem", "sysnet", "sysprocess", "syserrors", "sysservices", "sysconfig", "replication", "shardshealth"] as const;

/** The JSON values of a stream of concatenated JSON texts (the healthinfo answer), each as its source text. */
export function splitJsonValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === "{" || c === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth < 0) throw new Error("unbalanced JSON in the health report");
      if (depth === 0) out.push(text.slice(start, i + 1));
    } else if (depth === 0 && !/\s/.test(c ?? "")) {
      throw new Error("the health report holds something other than JSON objects");
    }
  }
  if (depth !== 0 || inString) throw new Error("the health report ends in the middle of a JSON value");
  return out;
}

/** Go's json.Encoder output of a raw value: compact, `<>&` and U+2028/2029 escaped, a newline after. */
function goEncode(raw: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? "";
    if (inString) {
      if (c === "\\") {
        out += c + (raw[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') inString = false;
      out += /[<>&\u2028\u2029]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c;
      continue;
    }
    if (c === '"') inString = true;
    if (!/\s/.test(c)) out += c;
  }
  return `${out}\n`;
}

export interface HealthReport {
  readonly version: string;
  /** The last (most complete) report the server sent, as its JSON text. */
  readonly info: string;
}

/**
 * GET /healthinfo as current madmin (v3 `ServerHealthInfo`): every data type
 * named false, the chosen ones true, the deadline and the anonymization mode;
 * the answer is a version record, then ever more complete reports.
 */
export async function fetchHealthReport(client: AdminClient, types: readonly string[], deadlineSeconds: number, anonymize: string): Promise<HealthReport> {
  const h = Math.floor(deadlineSeconds / 3600);
  const m = Math.floor((deadlineSeconds % 3600) / 60);
  const s = deadlineSeconds % 60;
  const deadline = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  const query: Record<string, string> = { deadline, anonymize };
  for (const t of healthDataTypes) query[t] = "false";
  for (const t of types) query[t] = "true";
  const res = await client.request({ method: "GET", path: "/healthinfo", query });
  const values = splitJsonValues(res.body.toString("utf8"));
  const head = JSON.parse(values[0] ?? "{}") as { version?: unknown; error?: unknown };
  if (typeof head.error === "string" && head.error !== "") throw new Error(head.error);
  const version = typeof head.version === "string" ? head.version : "";
  if (!["", "2", "3"].includes(version)) throw new Error(`Upgrade Minio Client to support health info version ${version}`);
  const info = values.at(-1);
  if (values.length < 2 || info === undefined) throw new Error("the server sent no health report");
  return { version, info };
}

/** upstream `TarGZHealthInfo`: gzip of `{"version":V}` and the report, each a line as Go's encoder writes it. */
export function healthReportFile(report: HealthReport): Buffer {
  return gzipSync(Buffer.from(goEncode(JSON.stringify({ version: report.version })) + goEncode(report.info), "utf8"));
}
