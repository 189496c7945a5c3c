import type { NotificationEntry, TargetKind } from "./notification.js";

/**
 * Bucket properties in the JSON that upstream's `mc stat` prints: minio-go's
 * configuration structs marshalled by Go's encoding/json, which writes every
 * field (null for an empty list) under its Go name unless a tag renames it.
 */

/** replication.Config: `{"Rules":[…],"Role":"…"}`; rules keep their XML element names, which are the Go names. */
export interface ReplicationJson {
  readonly Rules: readonly unknown[] | null;
  readonly Role: string;
}

export function replicationJson(rules: readonly unknown[], role: string): ReplicationJson {
  return { Rules: rules.length > 0 ? rules : null, Role: role };
}

/** notification.Config, embedded in each Topic/Queue/LambdaConfig: its Arn is `xml:"-"`, so always empty. */
function configJson(e: NotificationEntry): Record<string, unknown> {
  const rules = [...(e.prefix !== "" ? [{ Name: "prefix", Value: e.prefix }] : []), ...(e.suffix !== "" ? [{ Name: "suffix", Value: e.suffix }] : [])];
  return {
    ID: e.id,
    Arn: { Partition: "", Service: "", Region: "", AccountID: "", Resource: "" },
    Events: e.events.length > 0 ? e.events : null,
    Filter: rules.length > 0 ? { S3Key: { FilterRules: rules } } : null,
  };
}

const field: Readonly<Record<TargetKind, [group: string, arn: string]>> = {
  CloudFunction: ["LambdaConfigs", "Lambda"],
  Topic: ["TopicConfigs", "Topic"],
  Queue: ["QueueConfigs", "Queue"],
};

/** notification.Configuration, XMLName (the root element and its namespace) included. */
export function notificationJson(entries: readonly NotificationEntry[], xml: string): Record<string, unknown> {
  const namespace = /<NotificationConfiguration\b[^>]*\bxmlns="([^"]*)"/.exec(xml)?.[1] ?? "";
  const out: Record<string, unknown> = { XMLName: { Space: namespace, Local: "NotificationConfiguration" } };
  for (const kind of ["CloudFunction", "Topic", "Queue"] as const) {
    const [group, arn] = field[kind];
    const mine = entries.filter((e) => e.kind === kind).map((e) => ({ ...configJson(e), [arn]: e.arn }));
    out[group] = mine.length > 0 ? mine : null;
  }
  return out;
}
