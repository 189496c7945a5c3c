import { randomBytes } from "node:crypto";
import type { Client } from "minio";
import { s3Code, usageError } from "../../../core/errors.js";
import { s3Call } from "../s3-request.js";
import { isUnsupported, unsupportedAnswer, unsupportedError } from "../unsupported.js";
import { child, escapeXml, list, parseXml, rootName, text, type XmlValue } from "../xml.js";

export type TargetKind = "Topic" | "Queue" | "CloudFunction";

/** One notification configuration of a bucket. */
export interface NotificationEntry {
  readonly kind: TargetKind;
  readonly id: string;
  readonly arn: string;
  readonly events: readonly string[];
  readonly prefix: string;
  readonly suffix: string;
}

const arnElement: Readonly<Record<TargetKind, string>> = { Topic: "Topic", Queue: "Queue", CloudFunction: "CloudFunction" };
const kinds: readonly TargetKind[] = ["Topic", "Queue", "CloudFunction"];

/** mc's short event names (`put,delete,get`) as S3 event types. */
const eventTypes: Readonly<Record<string, string>> = {
  put: "s3:ObjectCreated:*",
  delete: "s3:ObjectRemoved:*",
  get: "s3:ObjectAccessed:*",
  replica: "s3:Replication:*",
  ilm: "s3:ObjectTransition:*",
};

export function parseEvents(value: string): string[] {
  const names = value.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  if (names.length === 0) throw usageError("--event needs at least one of put, delete, get.");
  return [
    ...new Set(
      names.map((n) => {
        const t = eventTypes[n];
        if (t === undefined) throw usageError(`unknown event \`${n}\`; use put, delete, get, replica or ilm.`);
        return t;
      }),
    ),
  ];
}

/** SNS ARNs are topics, SQS ARNs queues, Lambda ARNs functions (arn:PARTITION:SERVICE:REGION:ACCOUNT:NAME). */
export function kindOfArn(arn: string): TargetKind {
  const parts = arn.split(":");
  if (parts.length < 6 || parts[0] !== "arn" || (parts[5] ?? "") === "") throw usageError(`\`${arn}\` is not an ARN (arn:partition:service:region:account:name).`);
  if (parts[2] === "sns") return "Topic";
  if (parts[2] === "sqs") return "Queue";
  if (parts[2] === "lambda") return "CloudFunction";
  throw usageError(`ARN \`${arn}\` names neither an SNS topic, an SQS queue nor a Lambda function.`);
}

export const newNotificationId = (): string => `mc-${randomBytes(8).toString("hex")}`;

function entryOf(kind: TargetKind, el: XmlValue): NotificationEntry {
  let prefix = "";
  let suffix = "";
  for (const rule of list(child(child(el, "Filter"), "S3Key"), "FilterRule")) {
    const name = text(rule, "Name").toLowerCase();
    if (name === "prefix") prefix = text(rule, "Value");
    if (name === "suffix") suffix = text(rule, "Value");
  }
  const events = list(el, "Event").map((e) => (typeof e === "string" ? e : ""));
  return { kind, id: text(el, "Id"), arn: text(el, arnElement[kind]), events, prefix, suffix };
}

export const notificationFeature = "Bucket notification configuration";

/** The raw `GET ?notification` document. */
export async function getNotificationXml(client: Client, bucket: string): Promise<string> {
  const res = await s3Call(client, { method: "GET", bucket, query: "notification" }).catch((err: unknown) => {
    throw isUnsupported(err) ? unsupportedError(notificationFeature, s3Code(err), err) : err;
  });
  return res.body.toString("utf8");
}

export async function getNotifications(client: Client, bucket: string): Promise<NotificationEntry[]> {
  return parseNotifications(await getNotificationXml(client, bucket));
}

export function parseNotifications(xml: string): NotificationEntry[] {
  const doc = parseXml(xml, ["TopicConfiguration", "QueueConfiguration", "CloudFunctionConfiguration", "Event", "FilterRule"]);
  // Anything else (a bucket listing from a server that ignores `?notification`) must not pass for "no notifications".
  if (rootName(doc) !== "NotificationConfiguration") throw unsupportedAnswer(notificationFeature, "GET ?notification", rootName(doc) === "" ? "an empty body" : `a ${rootName(doc)} document`);
  const root = doc["NotificationConfiguration"];
  return kinds.flatMap((kind) => list(root, `${kind}Configuration`).map((el) => entryOf(kind, el)));
}

function entryXml(e: NotificationEntry): string {
  const rules = [e.prefix !== "" ? ["prefix", e.prefix] : undefined, e.suffix !== "" ? ["suffix", e.suffix] : undefined].filter((r): r is string[] => r !== undefined);
  const filter = rules.length === 0 ? "" : `<Filter><S3Key>${rules.map(([n, v]) => `<FilterRule><Name>${n ?? ""}</Name><Value>${escapeXml(v ?? "")}</Value></FilterRule>`).join("")}</S3Key></Filter>`;
  const events = e.events.map((ev) => `<Event>${escapeXml(ev)}</Event>`).join("");
  return `<${e.kind}Configuration><Id>${escapeXml(e.id)}</Id>${filter}<${arnElement[e.kind]}>${escapeXml(e.arn)}</${arnElement[e.kind]}>${events}</${e.kind}Configuration>`;
}

export async function putNotifications(client: Client, bucket: string, entries: readonly NotificationEntry[]): Promise<void> {
  const body = `<NotificationConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${entries.map(entryXml).join("")}</NotificationConfiguration>`;
  await s3Call(client, { method: "PUT", bucket, query: "notification", body, headers: { "Content-Type": "application/xml" } });
}

/**
 * Keeps `remaining` and drops the rest. The standard way is one PUT of what
 * remains (an empty one drops all). Ceph RGW instead merges a PUT into what it
 * has, and refuses an empty configuration as MalformedXML, but deletes single
 * notifications with DELETE ?notification=ID: used only when the PUT did not
 * drop them, since other servers may take an unknown DELETE for DeleteBucket.
 */
export async function replaceNotifications(client: Client, bucket: string, remaining: readonly NotificationEntry[], removed: readonly NotificationEntry[]): Promise<void> {
  try {
    await putNotifications(client, bucket, remaining);
  } catch (err) {
    if (!(remaining.length === 0 && s3Code(err) === "MalformedXML")) throw err;
  }
  const left = new Set((await getNotifications(client, bucket)).map((e) => e.id));
  for (const e of removed) {
    if (e.id !== "" && left.has(e.id)) await s3Call(client, { method: "DELETE", bucket, query: `notification=${encodeURIComponent(e.id)}`, expect: [200, 204] });
  }
}
