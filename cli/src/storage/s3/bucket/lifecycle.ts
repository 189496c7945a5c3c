import { createHash } from "node:crypto";
import type { Client } from "minio";
import { mcError, s3Code } from "../../../core/errors.js";
import { s3Call } from "../s3-request.js";
import { isUnsupported, unsupportedAnswer, unsupportedError } from "../unsupported.js";
import { escapeXml, parseXml, rootName, type XmlValue } from "../xml.js";

export type Json = string | number | boolean | null | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** A bucket's lifecycle configuration in mc's export shape (minio-go `lifecycle.Configuration` JSON). */
export interface LifecycleConfig {
  Rules: JsonObject[];
}

/** XML elements whose text is a number in the JSON form. */
const numeric = new Set(["Days", "NoncurrentDays", "NewerNoncurrentVersions", "DaysAfterInitiation", "ObjectSizeGreaterThan", "ObjectSizeLessThan"]);
const booleans = new Set(["ExpiredObjectDeleteMarker", "ExpiredObjectAllVersions"]);
const actions = ["Expiration", "NoncurrentVersionExpiration", "Transition", "NoncurrentVersionTransition", "AbortIncompleteMultipartUpload"];

function toJson(name: string, value: XmlValue): Json {
  if (Array.isArray(value)) return value.map((v) => toJson(name, v));
  if (typeof value === "string") {
    if (numeric.has(name) && /^-?\d+$/.test(value)) return Number(value);
    if (booleans.has(name) && (value === "true" || value === "false")) return value === "true";
    return value;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    // `And` holds a list of tags: minio-go names it Tags.
    const key = name === "And" && k === "Tag" ? "Tags" : k;
    out[key] = key === "Tags" && !Array.isArray(v) ? [toJson(k, v)] : toJson(k, v);
  }
  return out;
}

function toXml(name: string, value: Json): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.map((v) => toXml(name === "Tags" ? "Tag" : name, v)).join("");
  if (typeof value === "object") return `<${name}>${Object.entries(value).map(([k, v]) => toXml(k, v)).join("")}</${name}>`;
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export const lifecycleFeature = "Bucket lifecycle configuration";

export function lifecycleFromXml(xml: string): LifecycleConfig {
  const doc = parseXml(xml, ["Rule"]);
  // A server that ignores `?lifecycle` answers with something else (a bucket listing): never read that as "no rules".
  if (rootName(doc) !== "LifecycleConfiguration") throw unsupportedAnswer(lifecycleFeature, "GET ?lifecycle", rootName(doc) === "" ? "an empty body" : `a ${rootName(doc)} document`);
  const root = doc["LifecycleConfiguration"];
  const rules = root !== undefined && typeof root === "object" && !Array.isArray(root) ? root["Rule"] : undefined;
  const list = Array.isArray(rules) ? rules : [];
  return { Rules: list.map((r) => toJson("Rule", r) as JsonObject) };
}

export function lifecycleToXml(config: LifecycleConfig): string {
  const body = config.Rules.map((r) => toXml("Rule", r)).join("");
  return `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${body}</LifecycleConfiguration>`;
}

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks an imported document: what is wrong is said before anything reaches the server. */
export function validateLifecycle(value: unknown): LifecycleConfig {
  const bad = (why: string): never => {
    throw mcError(`Invalid lifecycle configuration: ${why}.`, undefined, "invalid_argument");
  };
  if (!isObject(value)) return bad("expected a JSON object with a `Rules` list");
  const extra = Object.keys(value).filter((k) => k !== "Rules");
  if (extra.length > 0) bad(`unknown field \`${extra[0] ?? ""}\``);
  const rules = value["Rules"];
  if (!Array.isArray(rules)) return bad("`Rules` must be a list");
  const ids = new Set<string>();
  rules.forEach((rule, i) => {
    if (!isObject(rule)) return bad(`rule ${i + 1} is not an object`);
    const id = rule["ID"];
    if (typeof id !== "string" || id === "") bad(`rule ${i + 1} has no \`ID\``);
    if (ids.has(String(id))) bad(`rule ID \`${String(id)}\` appears twice`);
    ids.add(String(id));
    if (rule["Status"] !== "Enabled" && rule["Status"] !== "Disabled") bad(`rule \`${String(id)}\` needs \`Status\` Enabled or Disabled`);
    if (!actions.some((a) => rule[a] !== undefined)) bad(`rule \`${String(id)}\` has no action (${actions.join(", ")})`);
  });
  return { Rules: rules as JsonObject[] };
}

/** The bucket's rules; none (not an error) when the bucket has no configuration. */
export async function getLifecycle(client: Client, bucket: string): Promise<LifecycleConfig> {
  try {
    const res = await s3Call(client, { method: "GET", bucket, query: "lifecycle" });
    return lifecycleFromXml(res.body.toString("utf8"));
  } catch (err) {
    if (s3Code(err) === "NoSuchLifecycleConfiguration") return { Rules: [] };
    if (isUnsupported(err)) throw unsupportedError(lifecycleFeature, s3Code(err), err);
    throw err;
  }
}

/** Replaces the configuration; an empty rule list removes it. */
export async function putLifecycle(client: Client, bucket: string, config: LifecycleConfig): Promise<void> {
  if (config.Rules.length === 0) {
    // Checked first: a server that ignores `?lifecycle` would take this DELETE for DeleteBucket.
    await getLifecycle(client, bucket);
    await s3Call(client, { method: "DELETE", bucket, query: "lifecycle", expect: [200, 204] });
    return;
  }
  const body = lifecycleToXml(config);
  const md5 = createHash("md5").update(body).digest("base64");
  try {
    await s3Call(client, { method: "PUT", bucket, query: "lifecycle", body, headers: { "Content-MD5": md5, "Content-Type": "application/xml" } });
  } catch (err) {
    if (isUnsupported(err)) throw unsupportedError(lifecycleFeature, s3Code(err), err);
    throw err;
  }
}
