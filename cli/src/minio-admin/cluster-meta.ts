import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, posix } from "node:path";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";

/**
 * `mc admin cluster bucket export|import` and `mc admin cluster iam
 * export|import` (upstream cmd/admin-cluster-*.go): bucket metadata and IAM
 * data as the server's zip files (madmin ExportBucketMetadata,
 * ImportBucketMetadata, ExportIAM, and madmin v3's ImportIAMV2 with v2.0.7's
 * ImportIAM as the fallback upstream uses).
 */
export const bucketMetaCapability = "Bucket metadata export and import";
export const iamMigrateCapability = "IAM export and import";

/** Go layout "2006-01-02T15-04-05.999999-07-00" (upstream `dateTimeFormatFilename`), in UTC. */
function stamp(d: Date): string {
  const ms = d.getUTCMilliseconds();
  return `${d.toISOString().slice(0, 19).replace(/:/g, "-")}${ms ? `.${String(ms).padStart(3, "0").replace(/0+$/, "")}` : ""}+00-00`;
}

/** The zip written whole beside its place and renamed in; an older file is kept as FILE.<time>; mode 0600. */
async function saveDownload(path: string, data: Buffer): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o755 }).catch((err: unknown) => {
    throw mcError("Unable to create download directory.", err, "unavailable");
  });
  const temp = posix.join(dir, `.${posix.basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, data, { mode: 0o600 });
    const old = await stat(path).catch(() => undefined);
    if (old?.isFile()) await rename(path, `${path}.${stamp(new Date())}`);
    else if (old !== undefined) throw new Error(`${path} is not a file`);
    await rename(temp, path);
    await chmod(path, 0o600);
  } catch (err) {
    await rm(temp, { force: true });
    throw mcError("Unable to download file data.", err, "unavailable");
  }
}

/** `ALIAS[/BUCKET]` as upstream cleans it (filepath.Clean of the slashed form). */
function cleaned(arg: string): string {
  const c = posix.normalize(arg.replace(/\\/g, "/"));
  return c.length > 1 ? c.replace(/\/+$/, "") : c;
}

const downloaded = (ctx: McContext, file: string, what: string): void => ctx.output.result({ file }, `${what} successfully downloaded as ${file}`);

export async function runBucketExport(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("cluster bucket export needs one ALIAS[/BUCKET].");
  const aliased = cleaned(args[0] ?? "");
  const target = adminTarget(ctx, aliased);
  const res = await target.client.request({ method: "GET", path: "/export-bucket-metadata", query: { bucket: target.path } }).catch((err: unknown) => {
    throw adminFailure("Unable to export bucket metadata", bucketMetaCapability, err);
  });
  const file = `${aliased}-${target.path === "" ? "bucket" : target.path}-metadata.zip`;
  await saveDownload(file, res.body);
  downloaded(ctx, file, "Bucket metadata");
}

export async function runIamExport(ctx: McContext, args: readonly string[], output: string | undefined): Promise<void> {
  if (args.length !== 1) throw usageError("cluster iam export needs one ALIAS.");
  const aliased = cleaned(args[0] ?? "");
  const target = adminTarget(ctx, aliased);
  const res = await target.client.request({ method: "GET", path: "/export-iam" }).catch((err: unknown) => {
    throw adminFailure("Unable to export IAM info", iamMigrateCapability, err);
  });
  const file = output !== undefined && output !== "" ? output : `${aliased}-iam-info.zip`;
  await saveDownload(file, res.body);
  downloaded(ctx, file, "IAM info");
}

/** A zip file as Go's zip.NewReader accepts it: an end-of-central-directory record near its end. */
async function readZip(file: string, what: string): Promise<Buffer> {
  const data = await readFile(file).catch((err: unknown) => {
    throw mcError(`Unable to get ${what}.`, err, "not_found");
  });
  const tail = data.subarray(Math.max(0, data.length - 65557));
  if (data.length < 22 || tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0) throw mcError(`Unable to read zip file ${file}.`, new Error("zip: not a valid zip file"), "invalid_argument");
  return data;
}

interface MetaStatus {
  isSet: boolean;
  error?: string;
}
type BucketStatus = Record<string, MetaStatus | string | undefined> & { error?: string };

/** upstream `statusTick`. */
const tick = (s: MetaStatus | undefined): string => (s?.error ? "✗ " : !s?.isSet ? " " : "✔ ");
const parts: readonly [string, string][] = [["olock", "Object lock: "], ["versioning", "Versioning: "], ["sse", "Encryption: "], ["lifecycle", "Lifecycle: "], ["notification", "Notification: "], ["quota", "Quota: "], ["policy", "Policy: "], ["tagging", "Tagging: "], ["cors", "CORS: "]];
const hasError = (st: BucketStatus): boolean => Boolean(st.error) || parts.some(([k]) => Boolean((st[k] as MetaStatus | undefined)?.error));

export function importText(buckets: Readonly<Record<string, BucketStatus>>): string {
  const names = Object.keys(buckets).sort();
  const bad = names.filter((n) => hasError(buckets[n] ?? {}));
  let b = `\n${names.length - bad.length}/${names.length} buckets were imported successfully.\n`;
  if (bad.length > 0) {
    b += "Errors: \n\n";
    for (const n of bad) {
      const st = buckets[n] ?? {};
      let e = `${"Name".padEnd(10)}: ${n}\n`;
      if (st.error) e += `  Error:  ${st.error}\n`;
      for (const [k, label] of parts) {
        const m = st[k] as MetaStatus | undefined;
        if (m?.isSet) e += `  ${label} ${tick(m)}\n`;
      }
      b += `${e}\n`;
    }
  }
  return b;
}

export async function runBucketImport(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("cluster bucket import needs ALIAS[/BUCKET] and a zip FILE.");
  const zip = await readZip(args[1] ?? "", "bucket metadata");
  const aliased = cleaned(args[0] ?? "");
  const target = adminTarget(ctx, aliased);
  const r = await target.client.json<{ buckets?: Record<string, BucketStatus> }>({ method: "PUT", path: "/import-bucket-metadata", query: { bucket: target.path }, body: zip }).catch((err: unknown) => {
    throw adminFailure("Unable to import bucket metadata", bucketMetaCapability, err);
  });
  const buckets = r.buckets ?? {};
  // upstream prints the bucket map alone as JSON (null when the server sent none).
  if (ctx.output.json) ctx.output.printJson(r.buckets ?? null);
  else ctx.output.line(importText(buckets));
}

type Entities = Record<string, unknown>;
interface ImportIamResult {
  skipped?: Entities;
  removed?: Entities;
  added?: Entities;
  failed?: Entities;
}

const names = (list: unknown): string[] => (Array.isArray(list) ? list.map((e) => (typeof e === "string" ? e : String((e as { name?: unknown }).name ?? ""))) : []);
const mapKeys = (list: unknown): string[] => (Array.isArray(list) ? list.flatMap((m) => Object.keys(m as object)) : []);

/** upstream `iamImportInfo.String()`. */
export function iamImportText(r: ImportIamResult): string {
  const out: string[] = [];
  const entities = (e: Entities | undefined, action: string): void => {
    if (!e) return;
    for (const [key, label] of [["policies", "policies"], ["users", "users"], ["groups", "groups"], ["serviceAccounts", "service accounts"]] as const) if (names(e[key]).length > 0) out.push(`${action} ${label}: ${names(e[key]).join(", ")}`);
    for (const [key, label] of [["userPolicies", "users"], ["groupPolicies", "groups"], ["stsPolicies", "sts"]] as const) if (mapKeys(e[key]).length > 0) out.push(`${action} policies for ${label}: ${mapKeys(e[key]).join(", ")}`);
  };
  entities(r.skipped, "Skipped");
  entities(r.removed, "Removed");
  entities(r.added, "Added");
  const f = r.failed ?? {};
  for (const [key, label] of [["policies", "policies"], ["users", "users"], ["groups", "groups"], ["serviceAccounts", "service accounts"], ["userPolicies", "policies for users"], ["groupPolicies", "policies for groups"], ["stsPolicies", "policies for sts"]] as const) {
    if (names(f[key]).length > 0) out.push(`Failed to add ${label}: ${names(f[key]).join(", ")}`);
  }
  return out.join("\n");
}

export async function runIamImport(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("cluster iam import needs ALIAS and a zip FILE.");
  const zip = await readZip(args[1] ?? "", "IAM info");
  const aliased = cleaned(args[0] ?? "");
  const target = adminTarget(ctx, aliased);
  const fail = (err: unknown): never => {
    throw adminFailure("Unable to import IAM info", iamMigrateCapability, err);
  };
  let result: ImportIamResult | undefined;
  try {
    result = await target.client.json<ImportIamResult>({ method: "PUT", path: "/import-iam-v2", body: zip });
  } catch {
    // A server before import-iam-v2: upstream tries the first import API.
    await target.client.request({ method: "PUT", path: "/import-iam", body: zip }).catch(fail);
  }
  if (result !== undefined) ctx.output.result(result, iamImportText(result));
  else ctx.output.result({ status: "success" }, `IAM info imported to ${aliased} from ${args[1] ?? ""}`);
}
