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
const types = ["cluster", "node", "bucket", "resource"] as const;

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

function metricType(arg: string | undefined): (typeof types)[number] {
  const t = arg ?? "cluster";
  if (!(types as readonly string[]).includes(t)) throw mcError(`invalid metric type \`${t}\`. valid values are \`${types.join(", ")}\``, undefined, "invalid_argument");
  return t as (typeof types)[number];
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
 * `mc admin prometheus generate ALIAS [TYPE] [--public]` (upstream
 * cmd/admin-prometheus-generate.go): the scrape config of the v2 metrics API
 * on stdout; nothing is sent.
 */
export function runPrometheusGenerate(ctx: McContext, args: readonly string[], isPublic: boolean, apiVersion: string): void {
  if (args.length < 1 || args.length > 2) throw usageError("prometheus generate needs ALIAS and an optional TYPE.");
  if (apiVersion !== "v2") throw mcError(`api-version \`${apiVersion}\` is not supported here; use v2.`, undefined, "unimplemented");
  const target = adminTarget(ctx, args[0]);
  const type = metricType(args[1]);
  const url = new URL(target.alias.url);
  const job = type === "cluster" ? "minio-job" : `minio-job-${type}`;
  const path = `/minio/v2/metrics/${type}`;
  const token = isPublic ? undefined : prometheusToken(target.alias);
  const scheme = url.protocol.replace(/:$/, "");
  const json = { jobName: job, ...(token ? { bearerToken: token } : {}), metricsPath: path, scheme, staticConfigs: [{ targets: [url.host] }] };
  ctx.output.result(json, yaml(job, token, path, scheme, url.host));
}

/**
 * `mc admin prometheus metrics ALIAS [TYPE]` (upstream
 * cmd/admin-prometheus-metrics.go, api-version v2): GET /minio/v2/metrics/TYPE
 * with the bearer token; the text as the server sent it, or with --json the
 * families as madmin's ParsePrometheusResults gives them.
 */
export async function runPrometheusMetrics(ctx: McContext, args: readonly string[], apiVersion: string): Promise<void> {
  if (args.length < 1 || args.length > 2) throw usageError("prometheus metrics needs ALIAS and an optional METRIC-TYPE.");
  if (apiVersion !== "v2") throw mcError(`Invalid api version \`${apiVersion}\`: only v2 is supported here.`, undefined, "unimplemented");
  const target = adminTarget(ctx, args[0]);
  const type = metricType(args[1]);
  const res = await target.client
    .request({ method: "GET", path: `/minio/v2/metrics/${type}`, absolute: true, anonymous: true, headers: { Authorization: `Bearer ${prometheusToken(target.alias)}` } })
    .catch((err: unknown) => {
      throw adminFailure("Unable to list prometheus metrics with api-version v2", metricsCapability, err, "metrics API");
    });
  const text = res.body.toString("utf8");
  if (!ctx.output.json) {
    ctx.output.stdout.write(text);
    ctx.output.line("");
    return;
  }
  ctx.output.printJson(parsePrometheusText(text));
}
