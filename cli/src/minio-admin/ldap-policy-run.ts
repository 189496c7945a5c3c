import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { ldapPolicyAssociate, ldapPolicyCapability, ldapPolicyEntities, type PolicyEntitiesResult } from "./idp.js";

/**
 * `mc idp ldap policy attach|detach|entities` (upstream
 * cmd/idp-ldap-policy-*.go).
 */

/** ALIAS POLICY [POLICY…] with exactly one of --user / --group (madmin `PolicyAssociationReq.IsValid`). */
export async function runLdapPolicyAssociate(ctx: McContext, attach: boolean, args: readonly string[], user: string | undefined, group: string | undefined): Promise<void> {
  if (args.length < 2) throw usageError(`idp ldap policy ${attach ? "attach" : "detach"} needs ALIAS and at least one POLICY.`);
  const policies = args.slice(1);
  const invalid =
    policies.some((p) => p === "") ? "an empty policy name was given"
    : !user && !group ? "no user or group association was given"
    : user && group ? "either a group or a user association must be given, not both"
    : "";
  if (invalid !== "") throw mcError(`Invalid policy ${attach ? "attach" : "detach"} arguments.`, new Error(invalid), "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const res = await ldapPolicyAssociate(target.client, attach, { policies, ...(user ? { user } : {}), ...(group ? { group } : {}) }).catch((err: unknown) => {
    throw adminFailure("Unable to make LDAP policy association", ldapPolicyCapability, err);
  });
  printAssociation(ctx, attach, (attach ? res.policiesAttached : res.policiesDetached) ?? [], user, group);
}

/** upstream `policyAssociationMessage` (cmd/admin-policy-attach.go), shared by the LDAP and built-in commands. */
export function printAssociation(ctx: McContext, attach: boolean, changed: readonly string[], user: string | undefined, group: string | undefined): void {
  const json = { status: "success", ...(changed.length > 0 ? { [attach ? "policiesAttached" : "policiesDetached"]: changed } : {}), ...(user ? { user } : {}), ...(group ? { group } : {}) };
  // upstream prints the list as Go's %v: `[a b]`.
  const head = `${attach ? "Attached" : "Detached"} Policies: [${changed.join(" ")}]`;
  const entity = user ? `${attach ? "To" : "From"} User: ${user}` : `${attach ? "To" : "From"} Group: ${group ?? ""}`;
  ctx.output.result(json, `${head}\n${entity}\n`);
}

/** upstream `builderWrapper`: comma-separated, wrapped at 80 columns, names with a comma quoted. */
function wrapped(list: readonly string[], indent: number, max = 80): string {
  let out = "";
  let len = 0;
  for (const raw of list) {
    const s = raw.includes(",") ? `"${raw}"` : raw;
    if (len + s.length > max && len > 0) {
      out += "\n";
      len = 0;
    }
    if (len === 0) {
      out += " ".repeat(indent);
      len = indent;
    } else {
      out += ", ";
      len += 2;
    }
    out += s;
    len += s.length;
  }
  return `${out}\n`;
}

/** Go's time.RFC3339 of the server's timestamp (no fraction). */
function rfc3339(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function policyEntitiesText(r: PolicyEntitiesResult): string {
  let o = `Query time: ${rfc3339(r.timestamp)}\n`;
  if ((r.userMappings ?? []).length > 0) {
    o += "User -> Policy Mappings:\n";
    for (const u of r.userMappings ?? []) {
      o += `  User: ${u.user}\n    Policies:\n${wrapped(u.policies ?? [], 6)}`;
      const member = u.memberOfMappings ?? [];
      if (member.length > 0) {
        const effective = new Set(u.policies ?? []);
        for (const g of member) for (const p of g.policies ?? []) effective.add(p);
        o += `    Group Memberships:\n${wrapped(member.map((g) => g.group), 6)}    Effective Policies:\n${wrapped([...effective].sort(), 6)}`;
      }
    }
  }
  if ((r.groupMappings ?? []).length > 0) {
    o += "Group -> Policy Mappings:\n";
    for (const g of r.groupMappings ?? []) o += `  Group: ${g.group}\n    Policies:\n${(g.policies ?? []).map((p) => `      ${p}\n`).join("")}`;
  }
  if ((r.policyMappings ?? []).length > 0) {
    o += "Policy -> Entity Mappings:\n";
    for (const p of r.policyMappings ?? []) {
      o += `  Policy: ${p.policy}\n`;
      if ((p.users ?? []).length > 0) o += `    User Mappings:\n${(p.users ?? []).map((u) => `      ${u}\n`).join("")}`;
      if ((p.groups ?? []).length > 0) o += `    Group Mappings:\n${(p.groups ?? []).map((g) => `      ${g}\n`).join("")}`;
    }
  }
  return o;
}

export async function runLdapPolicyEntities(ctx: McContext, args: readonly string[], q: { users: readonly string[]; groups: readonly string[]; policies: readonly string[] }): Promise<void> {
  if (args.length !== 1) throw usageError("idp ldap policy entities needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const res = await ldapPolicyEntities(target.client, q).catch((err: unknown) => {
    throw adminFailure("Unable to fetch LDAP policy entities", ldapPolicyCapability, err);
  });
  ctx.output.result({ status: "success", result: res }, policyEntitiesText(res));
}
