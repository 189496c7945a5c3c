import { createHmac } from "node:crypto";
import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { parsePrometheusText } from "./prometheus-text.js";

export const metricsCapability = "Prometheus metrics";

/** upstream `defaultPrometheusJWTExpiry`: 100 years of 365 days. */
const expirySeconds = 100 * 365 * 24 * 3600;
/** upstream's metric types (minio-go set.ToSlice order: sorted). */
const v2Types = ["bucket", "cluster", "node", "resource"] as const;
const v3Types = ["api", "audit", "cluster", "debug", "ilm", "logger", "notification", "replication", "scanner", "system"] as const;
const bucketTypes = ["api", "replication"] as const;

const b64url = (s: string | Buffer): string => Buffer.from(s).toString("base64url");

/**
 * The bearer token upstream gives Prometheus (golang-jwt HS512 with
 * RegisteredClaims iss/sub/exp, signed with the alias's secret key).
 */
export function prometheusToken(alias: ResolvedAlias, now = Date.now()): string {
  const head = b64url(JSON.stringify({ alg: "HS512", typ: "JWT" }));
  const claims = b64url(JSON.stringify({ iss: "prometheus", sub: alias.accessKey, exp: Math.floor(now / 1000) + expirySeconds }));
  const sig = createHmac("sha512", alias.secretKey).update(`${head}.${claims}`).digest("base64url");
  return `${head}.${claims}.${sig}`;
}

export interface MetricsTarget {
  /** The path below the alias's URL. */
  readonly path: string;
  /** upstream's scrape job name. */
  readonly job: string;
}

/**
 * The metrics path and job of upstream's `--api-version`: v2
 * `/minio/v2/metrics/TYPE` (cluster by default; --bucket refused), v3
 * `/minio/metrics/v3[/bucket][/TYPE][/BUCKET]` (everything by default;
 * --bucket only with api or replication). Checked before anything is sent.
 */
export function metricsTarget(apiVersion: string, type: string | undefined, bucket: string | undefined): MetricsTarget {
  const invalid = (message: string): never => {
    throw mcError(message, undefined, "invalid_argument");
  };
  if (apiVersion === "v2") {
    if (bucket !== undefined) invalid("Flag `bucket` is not supported with v2 metrics");
    const t = type ?? "cluster";
    if (!(v2Types as readonly string[]).includes(t)) invalid(`invalid metric type \`${t}\`. valid values are \`${v2Types.join(", ")}\``);
    return { path: `/minio/v2/metrics/${t}`, job: t === "cluster" ? "minio-job" : `minio-job-${t}` };
  }
  if (apiVersion !== "v3") invalid(`Invalid api version \`${apiVersion}\``);
  const t = type ?? "";
  if (t !== "" && !(v3Types as readonly string[]).includes(t)) invalid(`invalid metric type \`${t}\`. valid values are \`${v3Types.join(", ")}\``);
  const b = bucket ?? "";
  if (b !== "") {
    if (t === "") invalid(`metric type must be passed with --bucket. valid values are \`${bucketTypes.join(", ")}\``);
    if (!(bucketTypes as readonly string[]).includes(t)) invalid(`--bucket is applicable only for metric types \`${bucketTypes.join(", ")}\``);
  }
  const path = `/minio/metrics/v3${b !== "" ? "/bucket" : ""}${t !== "" ? `/${t}` : ""}${b !== "" ? `/${b}` : ""}`;
  return { path, job: t === "" ? "minio-job" : `minio-job-${t}` };
}

/** YAML as gopkg.in/yaml.v2 writes upstream's scrape config (a target with `:` is quoted in flow style). */
function yaml(job: string, token: string | undefined, path: string, scheme: string, host: string): string {
  const quote = (s: string): string => (/[:,[\]{}#&*!|>'"%@`]/.test(s) || s === "" ? `'${s.replace(/'/g, "''")}'` : s);
  return [
    "scrape_configs:",
    `- job_name: ${job}`,
    ...(token ? [`  bearer_token: ${token}`] : []),
    `  metrics_path: ${path}`,
    `  scheme: ${scheme}`,
    "  static_configs:",
    `  - targets: [${quote(host)}]`,
    "",
  ].join("\n");
}

/**
 * `mc admin prometheus generate ALIAS [TYPE] [--public] [--api-version v2|v3]
 * [--bucket B]` (upstream cmd/admin-prometheus-generate.go): the scrape
 * config of the metrics API on stdout; nothing is sent.
 */
export function runPrometheusGenerate(ctx: McContext, args: readonly string[], isPublic: boolean, apiVersion: string, bucket?: string): void {
  if (args.length < 1 || args.length > 2) throw usageError("prometheus generate needs ALIAS and an optional TYPE.");
  const target = adminTarget(ctx, args[0]);
  const { path, job } = metricsTarget(apiVersion, args[1], bucket);
  const url = new URL(target.alias.url);
  const token = isPublic ? undefined : prometheusToken(target.alias);
  const scheme = url.protocol.replace(/:$/, "");
  const json = { jobName: job, ...(token ? { bearerToken: token } : {}), metricsPath: path, scheme, staticConfigs: [{ targets: [url.host] }] };
  ctx.output.result(json, yaml(job, token, path, scheme, url.host));
}

/**
 * `mc admin prometheus metrics ALIAS [TYPE] [--api-version v2|v3]
 * [--bucket B]` (upstream cmd/admin-prometheus-metrics.go,
 * admin-prometheus-metrics-v3.go): GET of the metrics path with the bearer
 * token; the text as the server sent it, or with --json the families as
 * madmin's ParsePrometheusResults gives them.
 */
export async function runPrometheusMetrics(ctx: McContext, args: readonly string[], apiVersion: string, bucket?: string): Promise<void> {
  if (args.length < 1 || args.length > 2) throw usageError("prometheus metrics needs ALIAS and an optional METRIC-TYPE.");
  const target = adminTarget(ctx, args[0]);
  const { path } = metricsTarget(apiVersion, args[1], bucket);
  const res = await target.client
    .request({ method: "GET", path, absolute: true, anonymous: true, headers: { Authorization: `Bearer ${prometheusToken(target.alias)}` } })
    .catch((err: unknown) => {
      throw adminFailure(`Unable to list prometheus metrics with api-version ${apiVersion}`, metricsCapability, err, "metrics API");
    });
  const text = res.body.toString("utf8");
  if (!ctx.output.json) {
    ctx.output.stdout.write(text);
    ctx.output.line("");
    return;
  }
  ctx.output.printJson(parsePrometheusText(text));
}
