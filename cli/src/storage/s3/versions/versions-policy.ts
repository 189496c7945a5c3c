import { usageError } from "../../../core/errors.js";
import { flatMatch } from "../../../util/wildcard.js";

/** `mc anonymous set` permissions; `private` is upstream's alias of `none`. */
export type AccessPerm = "none" | "download" | "upload" | "public";

interface Statement {
  Sid?: string;
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface Policy {
  Version: string;
  Statement: Statement[];
}

const readObject = ["s3:GetObject"];
const writeObject = ["s3:AbortMultipartUpload", "s3:DeleteObject", "s3:ListMultipartUploadParts", "s3:PutObject"];
const commonBucket = ["s3:GetBucketLocation"];
const readBucket = ["s3:ListBucket"];
const writeBucket = ["s3:ListBucketMultipartUploads"];

export function parsePerm(text: string | undefined): AccessPerm {
  if (text === "private") return "none";
  if (text === "none" || text === "download" || text === "upload" || text === "public") return text;
  throw usageError(`Unrecognized permission \`${text ?? ""}\`. Allowed values are [none, private, public, download, upload].`);
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function isAnonymous(s: Statement): boolean {
  const p = s.Principal;
  if (p === "*") return true;
  if (typeof p === "object" && p !== null) return list((p as { AWS?: string | string[] }).AWS).includes("*");
  return false;
}

/** Parses a stored policy; "" (none) is an empty policy. */
export function parsePolicy(text: string): Policy {
  if (text.trim() === "") return { Version: "2012-10-17", Statement: [] };
  const parsed = JSON.parse(text) as Partial<Policy> & { Statement?: Statement | Statement[] };
  const statements = parsed.Statement === undefined ? [] : Array.isArray(parsed.Statement) ? parsed.Statement : [parsed.Statement];
  return { Version: parsed.Version ?? "2012-10-17", Statement: statements };
}

const objectArn = (bucket: string, prefix: string): string => `arn:aws:s3:::${bucket}/${prefix}*`;
const bucketArn = (bucket: string): string => `arn:aws:s3:::${bucket}`;

/** Whether an anonymous statement is one `anonymous set` wrote for exactly this bucket/prefix. */
function ownedBy(s: Statement, bucket: string, prefix: string): boolean {
  if (!isAnonymous(s) || s.Effect !== "Allow") return false;
  const resources = list(s.Resource);
  if (resources.length === 1 && resources[0] === objectArn(bucket, prefix)) return true;
  if (resources.length === 1 && resources[0] === bucketArn(bucket)) {
    const cond = list(s.Condition?.["StringEquals"]?.["s3:prefix"]);
    return prefix === "" ? cond.length === 0 || cond.includes("") : cond.length === 1 && cond[0] === prefix;
  }
  return false;
}

/** The policy with anonymous access for bucket/prefix replaced by `perm`; undefined when nothing is left (delete it). */
export function applyPerm(policy: Policy, bucket: string, prefix: string, perm: AccessPerm): Policy | undefined {
  const kept = policy.Statement.filter((s) => !ownedBy(s, bucket, prefix));
  const read = perm === "download" || perm === "public";
  const write = perm === "upload" || perm === "public";
  const added: Statement[] = [];
  if (read || write) {
    const bucketActions = [...commonBucket, ...(read ? readBucket : []), ...(write ? writeBucket : [])];
    const bucketStatement: Statement = { Effect: "Allow", Principal: { AWS: ["*"] }, Action: bucketActions, Resource: [bucketArn(bucket)] };
    if (prefix !== "") bucketStatement.Condition = { StringEquals: { "s3:prefix": [prefix] } };
    added.push(bucketStatement, { Effect: "Allow", Principal: { AWS: ["*"] }, Action: [...(read ? readObject : []), ...(write ? writeObject : [])], Resource: [objectArn(bucket, prefix)] });
  }
  const statements = [...kept, ...added];
  return statements.length === 0 ? undefined : { Version: policy.Version, Statement: statements };
}

/** What anonymous users may do under bucket/prefix according to the policy. */
export function permOf(policy: Policy, bucket: string, prefix: string): "private" | "download" | "upload" | "public" {
  const target = objectArn(bucket, prefix);
  let read = false;
  let write = false;
  for (const s of policy.Statement) {
    if (!isAnonymous(s) || s.Effect !== "Allow") continue;
    if (!list(s.Resource).some((r) => flatMatch(r, target))) continue;
    const actions = list(s.Action);
    const has = (a: string): boolean => actions.some((x) => flatMatch(x, a));
    read ||= has("s3:GetObject");
    write ||= has("s3:PutObject");
  }
  return read && write ? "public" : read ? "download" : write ? "upload" : "private";
}

/** Upstream's rule names per anonymous object resource: `bucket/prefix*` → readonly|writeonly|readwrite. */
export function rulesOf(policy: Policy): { resource: string; allow: string }[] {
  const out = new Map<string, { read: boolean; write: boolean }>();
  for (const s of policy.Statement) {
    if (!isAnonymous(s) || s.Effect !== "Allow") continue;
    for (const r of list(s.Resource)) {
      if (!r.startsWith("arn:aws:s3:::") || !r.includes("/")) continue;
      const resource = r.slice("arn:aws:s3:::".length);
      const cur = out.get(resource) ?? { read: false, write: false };
      const actions = list(s.Action);
      cur.read ||= actions.some((a) => flatMatch(a, "s3:GetObject"));
      cur.write ||= actions.some((a) => flatMatch(a, "s3:PutObject"));
      out.set(resource, cur);
    }
  }
  return [...out.entries()]
    .filter(([, p]) => p.read || p.write)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([resource, p]) => ({ resource, allow: p.read && p.write ? "readwrite" : p.read ? "readonly" : "writeonly" }));
}
