import type { Client } from "minio";
import { usageError } from "../../../core/errors.js";
import { isNoLockSetting } from "./versions-errors.js";

export type RetentionMode = "GOVERNANCE" | "COMPLIANCE";

export interface Validity {
  readonly value: number;
  readonly unit: "Days" | "Years";
}

/** `governance|compliance` in any case. */
export function parseMode(text: string | undefined): RetentionMode {
  const mode = (text ?? "").toUpperCase();
  if (mode === "GOVERNANCE" || mode === "COMPLIANCE") return mode;
  throw usageError(`invalid retention mode \`${text ?? ""}\`; use governance or compliance.`);
}

/** VALIDITY as `<N>d` or `<N>y` (N a positive integer). */
export function parseValidity(text: string | undefined): Validity {
  const m = /^(\d{1,6})([dDyY])$/.exec(text ?? "");
  const value = Number(m?.[1] ?? 0);
  if (!m || value < 1) throw usageError(`invalid validity \`${text ?? ""}\`; use a positive number of days or years such as 30d or 1y.`);
  return { value, unit: m[2]?.toLowerCase() === "y" ? "Years" : "Days" };
}

export function validityText(v: Validity): string {
  return `${v.value}${v.unit === "Years" ? "y" : "d"}`;
}

/** Now plus the validity, calendar-wise (Go's AddDate), with whole seconds as S3 dates carry. */
export function retainUntil(v: Validity, now = new Date()): Date {
  const d = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (v.unit === "Years") d.setUTCFullYear(d.getUTCFullYear() + v.value);
  else d.setUTCDate(d.getUTCDate() + v.value);
  return d;
}

export interface ObjectRetention {
  readonly mode: RetentionMode | "";
  /** RFC 3339, "" without retention. */
  readonly until: string;
}

const versionOpts = (versionId: string | undefined): { versionId: string } => ({ versionId: versionId ? encodeURIComponent(versionId) : "" });

/** An object's retention; none is not an error (RGW answers it with the bucket's "no lock configuration" code). */
export async function getRetention(client: Client, bucket: string, key: string, versionId?: string): Promise<ObjectRetention> {
  try {
    const r = await client.getObjectRetention(bucket, key, versionOpts(versionId));
    if (!r?.mode) return { mode: "", until: "" };
    return { mode: r.mode, until: new Date(r.retainUntilDate).toISOString() };
  } catch (err) {
    if (isNoLockSetting(err)) return { mode: "", until: "" };
    throw err;
  }
}

export async function putRetention(client: Client, bucket: string, key: string, opts: { mode: RetentionMode; until: Date; versionId?: string; bypass: boolean }): Promise<void> {
  await client.putObjectRetention(bucket, key, {
    ...versionOpts(opts.versionId),
    mode: opts.mode,
    retainUntilDate: opts.until.toISOString().replace(/\.\d{3}Z$/, "Z"),
    ...(opts.bypass ? { governanceBypass: true } : {}),
  });
}

/**
 * Removes an object's retention. S3 takes an empty <Retention/> (with the
 * bypass header for governance). RGW rejects that as MalformedXML and only
 * allows shortening governance retention to a future date, so there the
 * retention is shortened to one second from now and we wait for it to pass:
 * afterwards the object is as deletable as one without retention.
 */
export async function clearRetention(client: Client, bucket: string, key: string, opts: { versionId?: string; bypass: boolean }): Promise<void> {
  try {
    await client.putObjectRetention(bucket, key, { ...versionOpts(opts.versionId), ...(opts.bypass ? { governanceBypass: true } : {}) });
    return;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "MalformedXML") throw err;
  }
  const current = await getRetention(client, bucket, key, opts.versionId);
  if (current.mode === "" || Date.parse(current.until) <= Date.now()) return;
  const until = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
  await putRetention(client, bucket, key, { mode: current.mode, until, bypass: opts.bypass, ...(opts.versionId ? { versionId: opts.versionId } : {}) });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, until.getTime() - Date.now()) + 100));
}

export interface BucketLock {
  readonly enabled: boolean;
  readonly mode: RetentionMode | "";
  readonly validity: string;
}

/** The bucket's object lock configuration (default retention); a bucket without lock is an error the caller reports. */
export async function getBucketLock(client: Client, bucket: string): Promise<BucketLock> {
  const cfg = (await (client.getObjectLockConfig(bucket) as unknown as Promise<unknown>)) as { objectLockEnabled?: string; mode?: RetentionMode; unit?: string; validity?: number };
  const enabled = cfg.objectLockEnabled === "Enabled";
  if (!cfg.mode || !cfg.validity) return { enabled, mode: "", validity: "" };
  return { enabled, mode: cfg.mode, validity: validityText({ value: cfg.validity, unit: cfg.unit === "Years" ? "Years" : "Days" }) };
}

export async function setBucketLock(client: Client, bucket: string, rule: { mode: RetentionMode; validity: Validity } | undefined): Promise<void> {
  if (rule) await client.setObjectLockConfig(bucket, { mode: rule.mode, unit: rule.validity.unit, validity: rule.validity.value });
  else await client.setObjectLockConfig(bucket, {} as Parameters<Client["setObjectLockConfig"]>[1]);
}
