import { child, list, parseXml, text, type XmlValue } from "../storage/s3/xml.js";

/**
 * A bucket's replication configuration as minio-go's `replication.Config`
 * holds it: what `replicate export` prints (its JSON), what `import` reads,
 * and what every rule change sends back (its XML, byte for byte as Go's
 * encoding/xml writes it, so a request body matches the reference library's).
 */
export interface ReplTag {
  readonly Key: string;
  readonly Value: string;
}

export interface ReplRule {
  ID: string;
  Status: string;
  Priority: number;
  DeleteMarkerReplication: { Status: string };
  DeleteReplication: { Status: string };
  Destination: { Bucket: string; StorageClass: string };
  Filter: { Prefix: string; And: { Prefix: string; Tags: ReplTag[] }; Tag: ReplTag };
  SourceSelectionCriteria: { ReplicaModifications: { Status: string } };
  ExistingObjectReplication: { Status: string };
}

export interface ReplConfig {
  Rules: ReplRule[];
  Role: string;
}

const noTag: ReplTag = { Key: "", Value: "" };

export function emptyRule(): ReplRule {
  return {
    ID: "",
    Status: "",
    Priority: 0,
    DeleteMarkerReplication: { Status: "" },
    DeleteReplication: { Status: "" },
    Destination: { Bucket: "", StorageClass: "" },
    Filter: { Prefix: "", And: { Prefix: "", Tags: [] }, Tag: noTag },
    SourceSelectionCriteria: { ReplicaModifications: { Status: "" } },
    ExistingObjectReplication: { Status: "" },
  };
}

const tagOf = (v: XmlValue): ReplTag => ({ Key: text(v, "Key"), Value: text(v, "Value") });
/** Go's strconv.Atoi as encoding/xml applies it: a bad number fails the whole document. */
function int(s: string): number {
  const t = s.trim();
  if (t === "") return 0;
  if (!/^[+-]?\d+$/.test(t)) throw new Error(`strconv.ParseInt: parsing "${t}": invalid syntax`);
  return Number(t);
}

/** The server's `GET ?replication` answer (elements minio-go does not know are dropped, as it drops them). */
export function parseReplicationXml(body: string): ReplConfig {
  const doc = child(parseXml(body, ["Rule", "Tag"]), "ReplicationConfiguration");
  const rules = list(doc, "Rule").map((r): ReplRule => {
    const filter = child(r, "Filter");
    const and = child(filter, "And");
    const single = list(filter, "Tag")[0];
    return {
      ID: text(r, "ID"),
      Status: text(r, "Status"),
      Priority: int(text(r, "Priority")),
      DeleteMarkerReplication: { Status: text(child(r, "DeleteMarkerReplication"), "Status") },
      DeleteReplication: { Status: text(child(r, "DeleteReplication"), "Status") },
      Destination: { Bucket: text(child(r, "Destination"), "Bucket"), StorageClass: text(child(r, "Destination"), "StorageClass") },
      Filter: { Prefix: text(filter, "Prefix"), And: { Prefix: text(and, "Prefix"), Tags: list(and, "Tag").map(tagOf) }, Tag: single === undefined ? noTag : tagOf(single) },
      SourceSelectionCriteria: { ReplicaModifications: { Status: text(child(child(r, "SourceSelectionCriteria"), "ReplicaModifications"), "Status") } },
      ExistingObjectReplication: { Status: text(child(r, "ExistingObjectReplication"), "Status") },
    };
  });
  return { Rules: rules, Role: text(doc, "Role") };
}

/** Go encoding/xml EscapeText. */
function esc(s: string): string {
  return s.replace(/[&<>"'\t\n\r]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;", "\t": "&#x9;", "\n": "&#xA;", "\r": "&#xD;" })[c] ?? c);
}
const el = (name: string, inner: string): string => `<${name}>${inner}</${name}>`;
const opt = (name: string, value: string): string => (value === "" ? "" : el(name, esc(value)));
const tagXml = (t: ReplTag): string => el("Tag", opt("Key", t.Key) + opt("Value", t.Value));

/** xml.Marshal(replication.Config): field order and empty elements as minio-go's struct tags make them. */
export function replicationXml(cfg: ReplConfig): string {
  const rules = cfg.Rules.map((r) =>
    el(
      "Rule",
      opt("ID", r.ID) +
        el("Status", esc(r.Status)) +
        el("Priority", String(r.Priority)) +
        el("DeleteMarkerReplication", el("Status", esc(r.DeleteMarkerReplication.Status))) +
        el("DeleteReplication", el("Status", esc(r.DeleteReplication.Status))) +
        el("Destination", el("Bucket", esc(r.Destination.Bucket)) + opt("StorageClass", r.Destination.StorageClass)) +
        el("Filter", el("Prefix", esc(r.Filter.Prefix)) + el("And", opt("Prefix", r.Filter.And.Prefix) + r.Filter.And.Tags.map(tagXml).join("")) + tagXml(r.Filter.Tag)) +
        el("SourceSelectionCriteria", el("ReplicaModifications", el("Status", esc(r.SourceSelectionCriteria.ReplicaModifications.Status)))) +
        el("ExistingObjectReplication", el("Status", esc(r.ExistingObjectReplication.Status))),
    ),
  );
  return el("ReplicationConfiguration", rules.join("") + el("Role", esc(cfg.Role)));
}

const tagJson = (t: ReplTag): Record<string, string> => ({ ...(t.Key ? { Key: t.Key } : {}), ...(t.Value ? { Value: t.Value } : {}) });

/** A rule as Go's encoding/json writes minio-go's `replication.Rule` (mc's `replicate export`/`list --json`). */
export function ruleJson(r: ReplRule): Record<string, unknown> {
  return {
    ID: r.ID,
    Status: r.Status,
    Priority: r.Priority,
    DeleteMarkerReplication: { Status: r.DeleteMarkerReplication.Status },
    DeleteReplication: { Status: r.DeleteReplication.Status },
    Destination: { Bucket: r.Destination.Bucket, ...(r.Destination.StorageClass ? { StorageClass: r.Destination.StorageClass } : {}) },
    Filter: {
      ...(r.Filter.Prefix ? { Prefix: r.Filter.Prefix } : {}),
      And: { ...(r.Filter.And.Prefix ? { Prefix: r.Filter.And.Prefix } : {}), ...(r.Filter.And.Tags.length > 0 ? { Tag: r.Filter.And.Tags.map(tagJson) } : {}) },
      Tag: tagJson(r.Filter.Tag),
    },
    SourceSelectionCriteria: { ReplicaModifications: { Status: r.SourceSelectionCriteria.ReplicaModifications.Status } },
    ExistingObjectReplication: { Status: r.ExistingObjectReplication.Status },
  };
}

export function configJson(cfg: ReplConfig): Record<string, unknown> {
  return { Rules: cfg.Rules.map(ruleJson), Role: cfg.Role };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown, where: string): Obj => {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new Error(`json: cannot unmarshal ${Array.isArray(v) ? "array" : typeof v} into ${where}`);
  return v as Obj;
};
const str = (v: unknown, where: string): string => {
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new Error(`json: cannot unmarshal ${typeof v} into ${where} of type string`);
  return v;
};
/** Go's json matches field names case-insensitively. */
const get = (o: Obj, name: string): unknown => Object.entries(o).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const tagFrom = (v: unknown): ReplTag => {
  const t = obj(v, "replication.Tag");
  return { Key: str(get(t, "Key"), "Tag.Key"), Value: str(get(t, "Value"), "Tag.Value") };
};
const statusOf = (v: unknown, where: string): { Status: string } => ({ Status: str(get(obj(v, where), "Status"), `${where}.Status`) });

/** `replicate import`: the JSON `export` printed, decoded as Go decodes it into replication.Config. */
export function configFromJson(value: unknown): ReplConfig {
  const root = obj(value, "replication.Config");
  const rules = get(root, "Rules");
  if (rules !== undefined && rules !== null && !Array.isArray(rules)) throw new Error("json: cannot unmarshal into Config.Rules of type []replication.Rule");
  return {
    Role: str(get(root, "Role"), "Config.Role"),
    Rules: ((rules ?? []) as unknown[]).map((rv): ReplRule => {
      const r = obj(rv, "replication.Rule");
      const priority = get(r, "Priority") ?? 0;
      if (typeof priority !== "number" || !Number.isInteger(priority)) throw new Error("json: cannot unmarshal into Rule.Priority of type int");
      const dest = obj(get(r, "Destination"), "replication.Destination");
      const filter = obj(get(r, "Filter"), "replication.Filter");
      const and = obj(get(filter, "And"), "replication.And");
      const andTags = get(and, "Tag");
      if (andTags !== undefined && andTags !== null && !Array.isArray(andTags)) throw new Error("json: cannot unmarshal into And.Tag of type []replication.Tag");
      return {
        ID: str(get(r, "ID"), "Rule.ID"),
        Status: str(get(r, "Status"), "Rule.Status"),
        Priority: priority,
        DeleteMarkerReplication: statusOf(get(r, "DeleteMarkerReplication"), "DeleteMarkerReplication"),
        DeleteReplication: statusOf(get(r, "DeleteReplication"), "DeleteReplication"),
        Destination: { Bucket: str(get(dest, "Bucket"), "Destination.Bucket"), StorageClass: str(get(dest, "StorageClass"), "Destination.StorageClass") },
        Filter: { Prefix: str(get(filter, "Prefix"), "Filter.Prefix"), And: { Prefix: str(get(and, "Prefix"), "And.Prefix"), Tags: ((andTags ?? []) as unknown[]).map(tagFrom) }, Tag: tagFrom(get(filter, "Tag")) },
        SourceSelectionCriteria: { ReplicaModifications: statusOf(get(obj(get(r, "SourceSelectionCriteria"), "SourceSelectionCriteria"), "ReplicaModifications"), "ReplicaModifications") },
        ExistingObjectReplication: statusOf(get(r, "ExistingObjectReplication"), "ExistingObjectReplication"),
      };
    }),
  };
}

/** Rule.Tags(): `k=v&k2=v2` from the filter's tag or its And tags. */
export function ruleTags(r: ReplRule): string {
  const tags = r.Filter.And.Tags.length > 0 ? r.Filter.And.Tags : [r.Filter.Tag];
  return tags.filter((t) => t.Key !== "").map((t) => `${t.Key}=${t.Value}`).join("&");
}

export const rulePrefix = (r: ReplRule): string => r.Filter.Prefix || r.Filter.And.Prefix;
