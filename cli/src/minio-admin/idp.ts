import { usageError } from "../core/errors.js";
import type { AdminClient } from "./admin-client.js";

/** What a server without MinIO's admin API lacks, for the one-line failure. */
export const idpCapability = "Identity provider configuration";
export const ldapPolicyCapability = "LDAP policy association";
export const accessKeyCapability = "Access key management";

export type IdpType = "ldap" | "openid";

/** madmin `Default`: the name of the unnamed configuration. */
export const defaultCfgName = "_";

const encoder = new TextEncoder();
const octet = { "content-type": "application/octet-stream" } as const;

/**
 * A configuration name goes into the URL path unescaped (madmin joins it);
 * MinIO's names are letters, digits, `_`, `-` and `.`, and anything else
 * could change the path (`/`, `?`, `#`), so it is refused before sending.
 */
export function cfgName(name: string | undefined): string {
  if (name === undefined || name === "") return defaultCfgName;
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || name === "." || name === "..") throw usageError(`Invalid IDP configuration name \`${name}\`: use letters, digits, '_', '-' and '.'.`);
  return name;
}

const configApplied = (headers: Readonly<Record<string, string | string[] | undefined>>): boolean => headers["x-minio-config-applied"] === "true";

/**
 * madmin `AddOrUpdateIDPConfig`: PUT (add) or POST (update)
 * /idp-config/TYPE/NAME with the `key=value …` text encrypted. True when the
 * server still needs a restart (it did not answer `X-Minio-Config-Applied: true`).
 */
export async function setIdpConfig(client: AdminClient, type: IdpType, name: string, config: string, update: boolean): Promise<boolean> {
  const res = await client.request({ method: update ? "POST" : "PUT", path: `/idp-config/${type}/${name}`, body: encoder.encode(config), encrypt: true, headers: octet });
  return !configApplied(res.headers);
}

/** madmin `DeleteIDPConfig`: DELETE /idp-config/TYPE/NAME. */
export async function deleteIdpConfig(client: AdminClient, type: IdpType, name: string): Promise<boolean> {
  const res = await client.request({ method: "DELETE", path: `/idp-config/${type}/${name}` });
  return !configApplied(res.headers);
}

export interface IdpListItem {
  readonly type: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly roleARN?: string;
}

/** madmin `ListIDPConfig`: GET /idp-config/TYPE, answered encrypted. */
export async function listIdpConfig(client: AdminClient, type: IdpType): Promise<IdpListItem[]> {
  const list = await client.json<IdpListItem[] | null>({ method: "GET", path: `/idp-config/${type}`, decrypt: true });
  return Array.isArray(list) ? list : [];
}

export interface IdpCfgInfo {
  readonly key: string;
  readonly value: string;
  readonly isCfg: boolean;
  readonly isEnv: boolean;
}

export interface IdpConfig {
  readonly type: string;
  readonly name?: string;
  readonly info: readonly IdpCfgInfo[] | null;
}

/** madmin `GetIDPConfig`: GET /idp-config/TYPE/NAME, answered encrypted. */
export function getIdpConfig(client: AdminClient, type: IdpType, name: string): Promise<IdpConfig> {
  return client.json<IdpConfig>({ method: "GET", path: `/idp-config/${type}/${name}`, decrypt: true });
}

export interface PolicyAssociationResp {
  readonly policiesAttached?: string[];
  readonly policiesDetached?: string[];
  readonly updatedAt?: string;
}

/** madmin `AttachPolicyLDAP`/`DetachPolicyLDAP`: POST /idp/ldap/policy/attach|detach, both ways encrypted. */
export function ldapPolicyAssociate(client: AdminClient, attach: boolean, req: { readonly policies: readonly string[]; readonly user?: string; readonly group?: string }): Promise<PolicyAssociationResp> {
  const body = { policies: req.policies, ...(req.user ? { user: req.user } : {}), ...(req.group ? { group: req.group } : {}) };
  return client.json<PolicyAssociationResp>({ method: "POST", path: `/idp/ldap/policy/${attach ? "attach" : "detach"}`, body: encoder.encode(JSON.stringify(body)), encrypt: true, headers: octet, decrypt: true });
}

export interface PolicyEntitiesResult {
  readonly timestamp: string;
  readonly userMappings?: readonly { readonly user: string; readonly policies: readonly string[] | null; readonly memberOfMappings?: readonly { readonly group: string; readonly policies: readonly string[] | null }[] }[];
  readonly groupMappings?: readonly { readonly group: string; readonly policies: readonly string[] | null }[];
  readonly policyMappings?: readonly { readonly policy: string; readonly users: readonly string[] | null; readonly groups: readonly string[] | null }[];
}

/** madmin `GetLDAPPolicyEntities`: GET /idp/ldap/policy-entities?user=…&group=…&policy=…, answered encrypted. */
export function ldapPolicyEntities(client: AdminClient, q: { readonly users: readonly string[]; readonly groups: readonly string[]; readonly policies: readonly string[] }): Promise<PolicyEntitiesResult> {
  return client.json<PolicyEntitiesResult>({ method: "GET", path: "/idp/ldap/policy-entities", query: { user: q.users, group: q.groups, policy: q.policies }, decrypt: true });
}
