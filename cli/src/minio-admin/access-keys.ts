import type { AdminClient } from "./admin-client.js";

/**
 * Access keys of LDAP and OpenID users, as current upstream mc asks for them
 * (madmin-go v3; v2.0.7 predates the bulk lists, info-access-key and the
 * LDAP add-service-account call, and the name/description/expiration fields).
 */
const encoder = new TextEncoder();

export interface ServiceAccountInfo {
  readonly parentUser: string;
  readonly accountStatus: string;
  readonly impliedPolicy: boolean;
  readonly accessKey: string;
  readonly name?: string;
  readonly description?: string;
  readonly expiration?: string | null;
}

export interface ListAccessKeysResp {
  readonly serviceAccounts: readonly ServiceAccountInfo[] | null;
  readonly stsKeys: readonly ServiceAccountInfo[] | null;
}

export interface OpenIdUserAccessKeys extends ListAccessKeysResp {
  readonly minioAccessKey: string;
  readonly ID: string;
  readonly readableName: string;
}

export interface ListOptions {
  /** `all`, `users-only`, `sts-only` or `svcacc-only`. */
  readonly listType: string;
  readonly all: boolean;
  readonly users: readonly string[];
  /** OpenID only. */
  readonly configName?: string;
}

function listQuery(o: ListOptions, usersKey: string): Record<string, string | readonly string[]> {
  return { listType: o.listType, [usersKey]: o.users, ...(o.all ? { all: "true" } : {}), ...(o.configName ? { configName: o.configName } : {}) };
}

/** GET /idp/ldap/list-access-keys-bulk (madmin v3 `ListAccessKeysLDAPBulkWithOpts`): DN → keys. */
export async function listLdapAccessKeys(client: AdminClient, o: ListOptions): Promise<Record<string, ListAccessKeysResp>> {
  const r = await client.json<Record<string, ListAccessKeysResp> | null>({ method: "GET", path: "/idp/ldap/list-access-keys-bulk", query: listQuery(o, "userDNs"), decrypt: true });
  return r ?? {};
}

/** GET /idp/openid/list-access-keys-bulk (madmin v3 `ListAccessKeysOpenIDBulk`): one entry per configuration. */
export async function listOpenIdAccessKeys(client: AdminClient, o: ListOptions): Promise<{ configName: string; users: OpenIdUserAccessKeys[] | null }[]> {
  const r = await client.json<{ configName: string; users: OpenIdUserAccessKeys[] | null }[] | null>({ method: "GET", path: "/idp/openid/list-access-keys-bulk", query: listQuery(o, "users"), decrypt: true });
  return r ?? [];
}

export interface InfoAccessKeyResp {
  readonly parentUser?: string;
  readonly accountStatus?: string;
  readonly impliedPolicy?: boolean;
  readonly policy?: string;
  readonly name?: string;
  readonly description?: string;
  readonly expiration?: string | null;
  readonly userType?: string;
  readonly userProvider?: string;
  readonly ldapSpecificInfo?: { readonly username?: string };
  readonly openIDSpecificInfo?: { readonly configName?: string; readonly userID?: string; readonly userIDClaim?: string; readonly displayName?: string; readonly displayNameClaim?: string };
}

/** GET /info-access-key?accessKey=K (madmin v3 `InfoAccessKey`). */
export function infoAccessKey(client: AdminClient, accessKey: string): Promise<InfoAccessKeyResp> {
  return client.json<InfoAccessKeyResp>({ method: "GET", path: "/info-access-key", query: { accessKey }, decrypt: true });
}

export interface AddServiceAccountReq {
  readonly policy?: unknown;
  readonly targetUser?: string;
  readonly accessKey?: string;
  readonly secretKey?: string;
  readonly name?: string;
  readonly description?: string;
  /** RFC 3339; upstream sends the Unix epoch for "never". */
  readonly expiration: string;
}

export interface Credentials {
  readonly accessKey: string;
  readonly secretKey: string;
  readonly expiration?: string;
}

/** PUT /idp/ldap/add-service-account (madmin v3 `AddServiceAccountLDAP`), both ways encrypted. */
export async function addLdapServiceAccount(client: AdminClient, req: AddServiceAccountReq, path = "/idp/ldap/add-service-account"): Promise<Credentials> {
  const body = Object.fromEntries(Object.entries(req).filter(([, v]) => v !== undefined && v !== ""));
  const r = await client.json<{ credentials?: Credentials }>({ method: "PUT", path, body: encoder.encode(JSON.stringify(body)), encrypt: true, decrypt: true });
  return r.credentials ?? { accessKey: "", secretKey: "" };
}

export interface UpdateServiceAccountReq {
  readonly newPolicy?: unknown;
  readonly newSecretKey?: string;
  readonly newStatus?: string;
  readonly newName?: string;
  readonly newDescription?: string;
  readonly newExpiration?: string;
}

/** POST /update-service-account?accessKey=K (madmin `UpdateServiceAccount`), answered 204. */
export async function updateServiceAccount(client: AdminClient, accessKey: string, req: UpdateServiceAccountReq): Promise<void> {
  const body = Object.fromEntries(Object.entries(req).filter(([, v]) => v !== undefined && v !== ""));
  await client.request({ method: "POST", path: "/update-service-account", query: { accessKey }, body: encoder.encode(JSON.stringify(body)), encrypt: true, expect: [204, 200] });
}

/** DELETE /delete-service-account?accessKey=K (madmin `DeleteServiceAccount`), answered 204. */
export async function deleteServiceAccount(client: AdminClient, accessKey: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/delete-service-account", query: { accessKey }, expect: [204, 200] });
}

/** GET /list-access-keys-bulk (madmin v3 `ListAccessKeysBulk`): user → keys, answered encrypted. */
export async function listBuiltinAccessKeys(client: AdminClient, o: ListOptions): Promise<Record<string, ListAccessKeysResp>> {
  const r = await client.json<Record<string, ListAccessKeysResp> | null>({ method: "GET", path: "/list-access-keys-bulk", query: listQuery(o, "users"), decrypt: true });
  return r ?? {};
}
