import { randomBytes } from "node:crypto";
import { usageError } from "../../../core/errors.js";
import { parseSize } from "../../../util/humanize.js";
import type { Json, JsonObject } from "./lifecycle.js";

/** The rule settings `ilm rule add|edit` take as flags; undefined = not given. */
export interface RuleFlags {
  readonly prefix?: string | undefined;
  readonly tags?: string | undefined;
  readonly expireDays?: string | undefined;
  readonly expireDate?: string | undefined;
  readonly expireDeleteMarker?: boolean | undefined;
  /** MinIO's ExpiredObjectAllVersions: expiry removes every version of the object (needs Days). */
  readonly expireAllVersions?: boolean | undefined;
  readonly noncurrentExpireDays?: string | undefined;
  readonly noncurrentExpireNewer?: string | undefined;
  readonly transitionDays?: string | undefined;
  readonly transitionDate?: string | undefined;
  readonly storageClass?: string | undefined;
  readonly noncurrentTransitionDays?: string | undefined;
  readonly noncurrentStorageClass?: string | undefined;
  readonly disable?: boolean | undefined;
  /** Filter on object size (`1MiB`, `500KB`): ObjectSizeLessThan / ObjectSizeGreaterThan. */
  readonly sizeLt?: string | undefined;
  readonly sizeGt?: string | undefined;
}

/** A rule ID like mc's (20 characters of base32). */
export function newRuleId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  return [...randomBytes(20)].map((b) => alphabet[b % 32]).join("");
}

function days(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError(`${flag} needs a whole number of days (1 or more), not \`${value}\`.`);
  return Number(value);
}

function count(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError(`${flag} needs a positive whole number, not \`${value}\`.`);
  return Number(value);
}

/** `YYYY-MM-DD` as the midnight-UTC timestamp S3 requires. */
function date(flag: string, value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const parsed = m ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!m || parsed === undefined || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    throw usageError(`${flag} needs a date as YYYY-MM-DD, not \`${value}\`.`);
  }
  return `${value}T00:00:00Z`;
}

function parseTags(value: string): JsonObject[] {
  return value.split("&").map((pair) => {
    const at = pair.indexOf("=");
    if (at <= 0) throw usageError(`--tags needs key=value pairs joined by '&', not \`${value}\`.`);
    return { Key: pair.slice(0, at), Value: pair.slice(at + 1) };
  });
}

const asObject = (v: Json | undefined): JsonObject => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : {});

/** Object size bounds of a filter (bytes); undefined = none. */
export interface SizeBounds {
  readonly lt?: number | undefined;
  readonly gt?: number | undefined;
}

/** The rule's filter as prefix, tags and size bounds, whichever of the S3 shapes it uses. */
export function ruleFilter(rule: JsonObject): { prefix: string; tags: JsonObject[]; size: SizeBounds } {
  const filter = asObject(rule["Filter"]);
  const and = asObject(filter["And"]);
  const tagList = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.map(asObject) : v === undefined ? [] : [asObject(v)]);
  const prefix = and["Prefix"] ?? filter["Prefix"] ?? rule["Prefix"] ?? "";
  const num = (v: Json | undefined): number | undefined => (v === undefined || v === null || v === "" ? undefined : Number(v));
  const lt = num(and["ObjectSizeLessThan"] ?? filter["ObjectSizeLessThan"]);
  const gt = num(and["ObjectSizeGreaterThan"] ?? filter["ObjectSizeGreaterThan"]);
  const size = { ...(lt === undefined ? {} : { lt }), ...(gt === undefined ? {} : { gt }) };
  return { prefix: String(prefix), tags: [...tagList(filter["Tag"]), ...tagList(and["Tags"])], size };
}

function buildFilter(prefix: string, tags: JsonObject[], size: SizeBounds): JsonObject {
  const bounds: JsonObject = { ...(size.gt === undefined ? {} : { ObjectSizeGreaterThan: size.gt }), ...(size.lt === undefined ? {} : { ObjectSizeLessThan: size.lt }) };
  const conditions = (prefix === "" ? 0 : 1) + tags.length + Object.keys(bounds).length;
  if (tags.length === 0 && Object.keys(bounds).length === 0) return { Prefix: prefix };
  if (conditions === 1 && tags.length === 1) return { Tag: tags[0] ?? {} };
  if (conditions === 1) return bounds;
  return { And: { ...(prefix === "" ? {} : { Prefix: prefix }), ...(tags.length ? { Tags: tags } : {}), ...bounds } };
}

function sizeFlag(flag: string, value: string): number {
  const n = parseSize(value);
  if (n === undefined || !Number.isSafeInteger(n) || n < 0) throw usageError(`${flag} needs a size such as 1MiB or 500KB, not \`${value}\`.`);
  return n;
}

/** Applies flags to a rule (a new one for `add`, the stored one for `edit`); other fields stay as they were. */
export function applyRuleFlags(base: JsonObject, flags: RuleFlags): JsonObject {
  const rule: JsonObject = { ...base };
  if (flags.prefix !== undefined || flags.tags !== undefined || flags.sizeLt !== undefined || flags.sizeGt !== undefined || rule["Filter"] === undefined) {
    const current = ruleFilter(rule);
    delete rule["Prefix"];
    const size = { lt: flags.sizeLt === undefined ? current.size.lt : sizeFlag("--size-lt", flags.sizeLt), gt: flags.sizeGt === undefined ? current.size.gt : sizeFlag("--size-gt", flags.sizeGt) };
    if (size.lt !== undefined && size.gt !== undefined && size.gt >= size.lt) throw usageError("--size-gt must be smaller than --size-lt: no object would match.");
    rule["Filter"] = buildFilter(flags.prefix ?? current.prefix, flags.tags === undefined ? current.tags : flags.tags === "" ? [] : parseTags(flags.tags), size);
  }
  if (flags.expireDays !== undefined && flags.expireDate !== undefined) throw usageError("use only one of --expire-days and --expire-date.");
  if (flags.transitionDays !== undefined && flags.transitionDate !== undefined) throw usageError("use only one of --transition-days and --transition-date.");
  if (flags.expireDays !== undefined || flags.expireDate !== undefined || flags.expireDeleteMarker !== undefined || flags.expireAllVersions !== undefined) {
    const exp = asObject(rule["Expiration"]);
    if (flags.expireDays !== undefined) {
      delete exp["Date"];
      exp["Days"] = days("--expire-days", flags.expireDays);
    }
    if (flags.expireDate !== undefined) {
      delete exp["Days"];
      exp["Date"] = date("--expire-date", flags.expireDate);
    }
    if (flags.expireDeleteMarker !== undefined) exp["ExpiredObjectDeleteMarker"] = flags.expireDeleteMarker;
    // Last in the element, where newer minio-go's Expiration puts it (after Date, Days and ExpiredObjectDeleteMarker).
    const all = flags.expireAllVersions ?? exp["ExpiredObjectAllVersions"];
    delete exp["ExpiredObjectAllVersions"];
    if (all === true) exp["ExpiredObjectAllVersions"] = true;
    if (exp["ExpiredObjectAllVersions"] === true && exp["Days"] === undefined) throw usageError("--expire-all-object-versions needs --expire-days.");
    if (exp["ExpiredObjectDeleteMarker"] === true && (exp["Days"] !== undefined || exp["Date"] !== undefined)) {
      throw usageError("--expire-delete-marker cannot be combined with --expire-days or --expire-date (S3 allows only one of them in a rule's Expiration).");
    }
    rule["Expiration"] = exp;
  }
  if (flags.noncurrentExpireDays !== undefined || flags.noncurrentExpireNewer !== undefined) {
    const nc = asObject(rule["NoncurrentVersionExpiration"]);
    if (flags.noncurrentExpireDays !== undefined) nc["NoncurrentDays"] = days("--noncurrent-expire-days", flags.noncurrentExpireDays);
    if (flags.noncurrentExpireNewer !== undefined) nc["NewerNoncurrentVersions"] = count("--noncurrent-expire-newer", flags.noncurrentExpireNewer);
    rule["NoncurrentVersionExpiration"] = nc;
  }
  if (flags.transitionDays !== undefined || flags.transitionDate !== undefined || flags.storageClass !== undefined) {
    const tr = asObject(rule["Transition"]);
    if (flags.transitionDays !== undefined) {
      delete tr["Date"];
      tr["Days"] = days("--transition-days", flags.transitionDays);
    }
    if (flags.transitionDate !== undefined) {
      delete tr["Days"];
      tr["Date"] = date("--transition-date", flags.transitionDate);
    }
    if (flags.storageClass !== undefined) tr["StorageClass"] = flags.storageClass;
    if (tr["StorageClass"] === undefined || tr["StorageClass"] === "") throw usageError("a transition needs --storage-class (the target storage class or tier).");
    if (tr["Days"] === undefined && tr["Date"] === undefined) throw usageError("a transition needs --transition-days or --transition-date.");
    rule["Transition"] = tr;
  }
  if (flags.noncurrentTransitionDays !== undefined || flags.noncurrentStorageClass !== undefined) {
    const nt = asObject(rule["NoncurrentVersionTransition"]);
    if (flags.noncurrentTransitionDays !== undefined) nt["NoncurrentDays"] = days("--noncurrent-transition-days", flags.noncurrentTransitionDays);
    if (flags.noncurrentStorageClass !== undefined) nt["StorageClass"] = flags.noncurrentStorageClass;
    if (nt["StorageClass"] === undefined || nt["NoncurrentDays"] === undefined) {
      throw usageError("a noncurrent transition needs --noncurrent-transition-days and --noncurrent-transition-storage-class.");
    }
    rule["NoncurrentVersionTransition"] = nt;
  }
  if (flags.disable !== undefined) rule["Status"] = flags.disable ? "Disabled" : "Enabled";
  rule["Status"] ??= "Enabled";
  const hasAction = ["Expiration", "NoncurrentVersionExpiration", "Transition", "NoncurrentVersionTransition", "AbortIncompleteMultipartUpload"].some((a) => rule[a] !== undefined);
  if (!hasAction) throw usageError("a rule needs an action: --expire-days/--expire-date, --noncurrent-expire-days, --transition-days/--transition-date or --noncurrent-transition-days.");
  return rule;
}
