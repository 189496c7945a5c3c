import { createHash } from "node:crypto";
import type { Client } from "minio";
import { mcError, s3Code } from "../../../core/errors.js";
import { s3Call } from "../s3-request.js";
import { escapeXml, parseXml, rootName, type XmlElement, type XmlValue } from "../xml.js";

/** One CORS rule with minio-go's field names (cors.Rule), which `cors get --json` prints. */
export interface CorsRule {
  AllowedHeader: string[];
  AllowedMethod: string[];
  AllowedOrigin: string[];
  ExposeHeader: string[];
  ID: string;
  MaxAgeSeconds: number;
}

export interface CorsConfig {
  CORSRules: CorsRule[];
}

const listFields = ["AllowedHeader", "AllowedMethod", "AllowedOrigin", "ExposeHeader"] as const;
// AWS's JSON (aws s3api put-bucket-cors) names the lists in the plural.
const plural: Readonly<Record<string, string>> = { AllowedHeaders: "AllowedHeader", AllowedMethods: "AllowedMethod", AllowedOrigins: "AllowedOrigin", ExposeHeaders: "ExposeHeader" };
const methods = new Set(["GET", "PUT", "HEAD", "POST", "DELETE"]);

const bad = (what: string): Error => mcError(`Invalid CORS configuration: ${what}.`, undefined, "invalid_argument");

/** A rule from a file (strict: unknown fields are refused) or from a server (they are left out). */
function ruleOf(fields: Readonly<Record<string, unknown>>, n: number, strict: boolean, json = false): CorsRule {
  const rule: CorsRule = { AllowedHeader: [], AllowedMethod: [], AllowedOrigin: [], ExposeHeader: [], ID: "", MaxAgeSeconds: 0 };
  for (const [raw, value] of Object.entries(fields)) {
    const name = (json ? plural[raw] : undefined) ?? raw;
    if ((listFields as readonly string[]).includes(name)) {
      const values = value === null ? [] : Array.isArray(value) ? value : [value];
      if (!values.every((v) => typeof v === "string")) throw bad(`${raw} of rule ${n} must be text`);
      rule[name as (typeof listFields)[number]] = values as string[];
    } else if (name === "ID") {
      if (typeof value !== "string") throw bad(`ID of rule ${n} must be text`);
      rule.ID = value;
    } else if (name === "MaxAgeSeconds") {
      const seconds = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(seconds) || seconds < 0) throw bad(`MaxAgeSeconds of rule ${n} must be a whole number of seconds, not \`${String(value)}\``);
      rule.MaxAgeSeconds = seconds;
    } else if (strict) throw bad(`unknown field \`${raw}\` in rule ${n}`);
  }
  if (!strict) return rule;
  if (rule.AllowedOrigin.length === 0) throw bad(`rule ${n} has no AllowedOrigin`);
  if (rule.AllowedMethod.length === 0) throw bad(`rule ${n} has no AllowedMethod`);
  for (const m of rule.AllowedMethod) if (!methods.has(m)) throw bad(`unknown AllowedMethod \`${m}\` in rule ${n}; use GET, PUT, HEAD, POST or DELETE`);
  return rule;
}

function fromXml(text: string, strict = true): CorsConfig {
  const doc = parseXml(text, ["CORSRule", ...listFields]);
  const root = rootName(doc);
  if (root !== "CORSConfiguration") throw bad(root === "" ? "no XML document" : `the root element is \`${root}\`, not CORSConfiguration`);
  const top = doc[root];
  const config: XmlElement = typeof top === "object" && !Array.isArray(top) ? top : {};
  for (const name of Object.keys(config)) if (strict && name !== "CORSRule") throw bad(`unknown element \`${name}\` in CORSConfiguration`);
  const rules = (config["CORSRule"] ?? []) as XmlValue[];
  return { CORSRules: rules.map((r, i) => ruleOf(typeof r === "object" && !Array.isArray(r) ? r : {}, i + 1, strict)) };
}

function fromJson(text: string): CorsConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw mcError(`Invalid CORS configuration: not valid JSON.`, err, "invalid_argument");
  }
  const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  // A line of `cors get --json` carries the configuration under "cors".
  let top = record(doc);
  if (top && "cors" in top && "status" in top) top = record(top["cors"]);
  if (!top) throw bad("the JSON is not an object with CORSRules");
  for (const name of Object.keys(top)) if (name !== "CORSRules") throw bad(`unknown field \`${name}\`; expected CORSRules`);
  const rules = top["CORSRules"];
  if (!Array.isArray(rules)) throw bad("CORSRules must be a list");
  return { CORSRules: rules.map((r, i) => ruleOf(record(r) ?? {}, i + 1, true, true)) };
}

/** A CORS file: S3's XML, or JSON (`cors get --json`'s form, or AWS's with plural lists). */
export function parseCors(text: string): CorsConfig {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  const config = trimmed.startsWith("{") ? fromJson(trimmed) : fromXml(trimmed);
  if (config.CORSRules.length === 0) throw bad("no CORSRule");
  if (config.CORSRules.length > 100) throw bad(`${config.CORSRules.length} rules; S3 allows 100`);
  return config;
}

/** S3's XML, elements in minio-go's order (what upstream's `cors get` prints). */
export function corsToXml(config: CorsConfig): string {
  const el = (name: string, value: string): string => `<${name}>${escapeXml(value)}</${name}>`;
  const rules = config.CORSRules.map(
    (r) =>
      `<CORSRule>${listFields.map((f) => r[f].map((v) => el(f, v)).join("")).join("")}${r.ID ? el("ID", r.ID) : ""}${r.MaxAgeSeconds ? el("MaxAgeSeconds", String(r.MaxAgeSeconds)) : ""}</CORSRule>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${rules.join("")}</CORSConfiguration>`;
}

/** The bucket's configuration; undefined when it has none. */
export async function getBucketCors(client: Client, bucket: string): Promise<CorsConfig | undefined> {
  try {
    const res = await s3Call(client, { method: "GET", bucket, query: "cors" });
    return fromXml(res.body.toString("utf8"), false);
  } catch (err) {
    if (s3Code(err) === "NoSuchCORSConfiguration") return undefined;
    throw err;
  }
}

export async function setBucketCors(client: Client, bucket: string, config: CorsConfig): Promise<void> {
  const body = corsToXml(config);
  // S3 requires Content-MD5 on PutBucketCors.
  const md5 = createHash("md5").update(body).digest("base64");
  await s3Call(client, { method: "PUT", bucket, query: "cors", body, headers: { "Content-Type": "application/xml", "Content-MD5": md5 } });
}

export async function removeBucketCors(client: Client, bucket: string): Promise<void> {
  await s3Call(client, { method: "DELETE", bucket, query: "cors", expect: [200, 204] });
}
