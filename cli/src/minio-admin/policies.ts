import type { AdminClient } from "./admin-client.js";
import type { PolicyAssociationResp, PolicyEntitiesResult } from "./idp.js";

/**
 * Canned (IAM) policies of the built-in identity provider (madmin-go
 * policy-commands.go). attach/detach follow current upstream (madmin-go v3:
 * answered 200 with the association, encrypted); a server of v2.0.7's age
 * answers 201/204 without a body, read as no change reported.
 */
export const policyCapability = "IAM policy management";

/** PUT /add-canned-policy?name=N with the document as sent (madmin `AddCannedPolicy`; not encrypted). */
export async function addCannedPolicy(client: AdminClient, name: string, doc: Uint8Array): Promise<void> {
  await client.request({ method: "PUT", path: "/add-canned-policy", query: { name }, body: doc });
}

/** DELETE /remove-canned-policy?name=N (madmin `RemoveCannedPolicy`). */
export async function removeCannedPolicy(client: AdminClient, name: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/remove-canned-policy", query: { name } });
}

/** GET /list-canned-policies: name → document (madmin `ListCannedPolicies`). */
export async function listCannedPolicies(client: AdminClient): Promise<Record<string, unknown>> {
  return (await client.json<Record<string, unknown> | null>({ method: "GET", path: "/list-canned-policies" })) ?? {};
}

export interface PolicyInfo {
  readonly PolicyName: string;
  readonly Policy: unknown;
  readonly CreateDate?: string;
  readonly UpdateDate?: string;
}

/** GET /info-canned-policy?name=N&v=2 (madmin `InfoCannedPolicyV2`). */
export function infoCannedPolicy(client: AdminClient, name: string): Promise<PolicyInfo> {
  return client.json<PolicyInfo>({ method: "GET", path: "/info-canned-policy", query: { name, v: "2" } });
}

/** POST /idp/builtin/policy/attach|detach, encrypted (madmin v3 `AttachPolicy`/`DetachPolicy`). */
export async function builtinPolicyAssociate(client: AdminClient, attach: boolean, req: { readonly policies: readonly string[]; readonly user?: string; readonly group?: string }): Promise<PolicyAssociationResp> {
  const res = await client.request({ method: "POST", path: `/idp/builtin/policy/${attach ? "attach" : "detach"}`, body: new TextEncoder().encode(JSON.stringify(req)), encrypt: true, expect: [200, 201, 204] });
  if (res.status !== 200 || res.body.length === 0) return { updatedAt: "" };
  return JSON.parse(Buffer.from(await client.decrypt(res.body)).toString("utf8")) as PolicyAssociationResp;
}

/** GET /idp/builtin/policy-entities?user=…&group=…&policy=… (madmin `GetPolicyEntities`), answered encrypted. */
export function builtinPolicyEntities(client: AdminClient, q: { readonly users: readonly string[]; readonly groups: readonly string[]; readonly policies: readonly string[] }): Promise<PolicyEntitiesResult> {
  return client.json<PolicyEntitiesResult>({ method: "GET", path: "/idp/builtin/policy-entities", query: { user: q.users, group: q.groups, policy: q.policies }, decrypt: true });
}
