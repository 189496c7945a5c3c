import { randomBytes } from "node:crypto";
import { emptyRule, rulePrefix, type ReplConfig, type ReplRule, type ReplTag } from "./replication-config.js";

/**
 * Rule changes of `replicate add|update|remove`, with the checks and error
 * texts of minio-go's replication.Config AddRule/EditRule/RemoveRule (the
 * library upstream mc calls), so a request refused there is refused here.
 */
export interface RuleOptions {
  readonly id?: string;
  readonly prefix?: string;
  /** enable | disable ("" = keep, on edit). */
  readonly ruleStatus?: string;
  readonly priority?: string;
  readonly tags?: string;
  readonly storageClass?: string;
  readonly destBucket?: string;
  readonly isTagSet?: boolean;
  readonly isSCSet?: boolean;
  readonly deleteMarkers?: string;
  readonly deletes?: string;
  readonly replicaSync?: string;
  readonly existing?: string;
}

export class RuleError extends Error {}

function tagsOf(s: string | undefined): ReplTag[] {
  const out: ReplTag[] = [];
  for (const tok of (s ?? "").split("&")) {
    if (tok === "") break;
    const at = tok.indexOf("=");
    if (at < 0) throw new RuleError("tags should be entered as comma separated k=v pairs");
    out.push({ Key: tok.slice(0, at), Value: tok.slice(at + 1) });
  }
  return out;
}

function filterOf(prefix: string, tags: ReplTag[]): ReplRule["Filter"] {
  const f: ReplRule["Filter"] = { Prefix: prefix, And: { Prefix: "", Tags: [] }, Tag: { Key: "", Value: "" } };
  if (prefix === "" && tags.length === 1 && tags[0]) f.Tag = tags[0];
  if (tags.length > 1 || prefix !== "") return { Prefix: "", And: { Prefix: prefix, Tags: tags }, Tag: { Key: "", Value: "" } };
  return f;
}

function toggle(v: string | undefined, what: string): string {
  if (v === "enable") return "Enabled";
  if (v === "disable") return "Disabled";
  throw new RuleError(what);
}

/** An xid (github.com/rs/xid): 12 bytes (time, machine, pid, counter) in lower-case base32hex, as minio-go names a new rule. */
export function newXid(now = Date.now()): string {
  const b = Buffer.alloc(12);
  b.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  randomBytes(3).copy(b, 4);
  b.writeUInt16BE(process.pid & 0xffff, 7);
  randomBytes(3).copy(b, 9);
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of b) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out + alphabet[(value << (5 - bits)) & 31];
}

function validate(r: ReplRule): void {
  if (r.ID.length > 255) throw new RuleError("ID must be less than 255 characters");
  if (r.Status !== "Enabled" && r.Status !== "Disabled") throw new RuleError("status must be set to either Enabled or Disabled");
  const f = r.Filter;
  const andEmpty = f.And.Tags.length === 0 && f.And.Prefix === "";
  if ((!andEmpty && (f.Prefix !== "" || f.Tag.Key !== "")) || (f.Prefix !== "" && f.Tag.Key !== "")) throw new RuleError("invalid filter");
  if (f.Tag.Key !== "" && [...f.Tag.Key].length > 128) throw new RuleError("invalid Tag Key");
  if ([...f.Tag.Value].length > 256) throw new RuleError("invalid Tag Value");
  if (r.Priority < 0 && r.Status === "Enabled") throw new RuleError("priority must be set for the rule");
}

const isArn = (s: string): boolean => s.split(":").length === 6;

export function addRule(cfg: ReplConfig, o: RuleOptions): ReplConfig {
  const priority = Number(o.priority ?? "");
  if (!/^[+-]?\d+$/.test(o.priority ?? "")) throw new RuleError(`strconv.Atoi: parsing "${o.priority ?? ""}": invalid syntax`);
  const status = toggle(o.ruleStatus, "rule state should be either [enable|disable]");
  const rule = emptyRule();
  rule.ID = o.id || newXid();
  rule.Status = status;
  rule.Priority = priority;
  rule.Filter = filterOf(o.prefix ?? "", tagsOf(o.tags));
  if (!isArn(o.destBucket ?? "")) throw new RuleError("destination bucket needs to be in Arn format");
  rule.Destination = { Bucket: o.destBucket ?? "", StorageClass: o.storageClass ?? "" };
  rule.DeleteMarkerReplication.Status = o.deleteMarkers ? toggle(o.deleteMarkers, "ReplicateDeleteMarkers should be either enable|disable") : "Disabled";
  rule.DeleteReplication.Status = o.deletes ? toggle(o.deletes, "ReplicateDeletes should be either enable|disable") : "Disabled";
  rule.SourceSelectionCriteria.ReplicaModifications.Status = o.replicaSync ? toggle(o.replicaSync, "replica metadata sync should be either [enable|disable]") : "Enabled";
  rule.ExistingObjectReplication.Status = o.existing ? toggle(o.existing, "existingObjectReplicate should be either enable|disable") : "";
  validate(rule);
  const rules = cfg.Rules.map((r) => ({ ...r }));
  let role = cfg.Role;
  // A config naming its target in Role (older MinIO) moves it into each rule's destination.
  if (role !== "" && !role.startsWith("arn:aws:iam")) {
    for (const r of rules) r.Destination = { ...r.Destination, Bucket: role };
    role = "";
  }
  for (const r of rules) {
    if (r.Priority === rule.Priority) throw new RuleError("priority must be unique. Replication configuration already has a rule with this priority");
    if (r.ID === rule.ID) throw new RuleError("a rule exists with this ID");
  }
  return { Rules: [...rules, rule], Role: role };
}

export function editRule(cfg: ReplConfig, o: RuleOptions): ReplConfig {
  if (!o.id) throw new RuleError("rule ID missing");
  let rules = cfg.Rules.map((r) => ({ ...r }));
  let role = cfg.Role;
  if (role !== "" && !role.startsWith("arn:aws:iam") && rules.length > 1) {
    rules = rules.map((r) => ({ ...r, Destination: { ...r.Destination, Bucket: role } }));
    role = "";
  }
  const at = rules.findIndex((r) => r.ID === o.id);
  const found = rules[at];
  if (found === undefined) throw new RuleError(`rule with ID ${o.id} not found in replication configuration`);
  const rule: ReplRule = structuredClone(found);
  const prefix = o.prefix ?? "";
  if (o.isTagSet || prefix !== rulePrefix(rule)) {
    const tags = o.isTagSet ? tagsOf(o.tags) : rule.Filter.And.Tags.length > 0 ? rule.Filter.And.Tags : [rule.Filter.Tag];
    rule.Filter = filterOf(prefix, tags);
  }
  if (o.ruleStatus) rule.Status = toggle(o.ruleStatus, "rule state should be either [enable|disable]");
  if (o.deleteMarkers) rule.DeleteMarkerReplication.Status = toggle(o.deleteMarkers, "ReplicateDeleteMarkers state should be either [enable|disable]");
  if (o.deletes) rule.DeleteReplication.Status = toggle(o.deletes, "ReplicateDeletes state should be either [enable|disable]");
  if (o.replicaSync) rule.SourceSelectionCriteria.ReplicaModifications.Status = toggle(o.replicaSync, "replica metadata sync should be either [enable|disable]");
  if (o.existing) rule.ExistingObjectReplication.Status = toggle(o.existing, "existingObjectsReplication state should be either [enable|disable]");
  if (o.isSCSet) rule.Destination.StorageClass = o.storageClass ?? "";
  if (o.priority) {
    if (!/^[+-]?\d+$/.test(o.priority)) throw new RuleError(`strconv.Atoi: parsing "${o.priority}": invalid syntax`);
    rule.Priority = Number(o.priority);
  }
  if (o.destBucket) {
    if (!isArn(o.destBucket)) throw new RuleError("destination bucket needs to be in Arn format");
    rule.Destination.Bucket = o.destBucket;
  }
  validate(rule);
  rules.forEach((r, i) => {
    if (r.Priority === rule.Priority && i !== at) throw new RuleError("priority must be unique. Replication configuration already has a rule with this priority");
    if (r.Destination.Bucket !== rule.Destination.Bucket && r.ID === rule.ID) throw new RuleError("invalid destination bucket for this rule");
  });
  rules[at] = rule;
  return { Rules: rules, Role: role };
}

export function removeRule(cfg: ReplConfig, id: string): ReplConfig {
  const rest = cfg.Rules.filter((r) => r.ID !== id);
  if (rest.length === cfg.Rules.length) throw new RuleError(`Rule with ID ${id} not found`);
  if (rest.length === 0) throw new RuleError("replication configuration should have at least one rule");
  return { ...cfg, Rules: rest };
}
