import type { AdminClient } from "./admin-client.js";

/**
 * Built-in users, their service accounts and STS keys (madmin-go
 * user-commands.go). The service-account bodies carry current upstream's
 * name/description/expiration fields (madmin-go v3), which v2.0.7 lacks.
 */
export const userCapability = "User management";
export const svcacctCapability = "Service account management";

const encoder = new TextEncoder();
const jsonBody = (v: unknown): Uint8Array => encoder.encode(JSON.stringify(v));
const defined = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ""));

export interface UserInfo {
  readonly secretKey?: string;
  readonly policyName?: string;
  readonly status: string;
  readonly memberOf?: readonly string[] | null;
  readonly updatedAt?: string;
}

/** PUT /add-user?accessKey=U with `{secretKey, status:"enabled"}` encrypted (madmin `AddUser`). */
export async function addUser(client: AdminClient, accessKey: string, secretKey: string): Promise<void> {
  await client.request({ method: "PUT", path: "/add-user", query: { accessKey }, body: jsonBody({ secretKey, status: "enabled" }), encrypt: true });
}

/** PUT /set-user-status?accessKey=U&status=enabled|disabled (madmin `SetUserStatus`). */
export async function setUserStatus(client: AdminClient, accessKey: string, status: "enabled" | "disabled"): Promise<void> {
  await client.request({ method: "PUT", path: "/set-user-status", query: { accessKey, status } });
}

/** DELETE /remove-user?accessKey=U (madmin `RemoveUser`). */
export async function removeUser(client: AdminClient, accessKey: string): Promise<void> {
  await client.request({ method: "DELETE", path: "/remove-user", query: { accessKey } });
}

/** GET /list-users, answered encrypted (madmin `ListUsers`): name → info. */
export async function listUsers(client: AdminClient): Promise<Record<string, UserInfo>> {
  return (await client.json<Record<string, UserInfo> | null>({ method: "GET", path: "/list-users", decrypt: true })) ?? {};
}

/** GET /user-info?accessKey=U, plain JSON (madmin `GetUserInfo`). */
export function userInfo(client: AdminClient, accessKey: string): Promise<UserInfo> {
  return client.json<UserInfo>({ method: "GET", path: "/user-info", query: { accessKey } });
}

export interface SvcAddReq {
  readonly policy?: unknown;
  readonly targetUser?: string;
  readonly accessKey?: string;
  readonly secretKey?: string;
  readonly name?: string;
  readonly description?: string;
  /** RFC 3339 (upstream sends its epoch sentinel for "never"). */
  readonly expiration?: string;
}

export interface SvcCredentials {
  readonly accessKey: string;
  readonly secretKey: string;
  readonly expiration?: string;
}

/** PUT /add-service-account, both ways encrypted (madmin `AddServiceAccount`). */
export async function addServiceAccount(client: AdminClient, req: SvcAddReq): Promise<SvcCredentials> {
  const r = await client.json<{ credentials?: SvcCredentials }>({ method: "PUT", path: "/add-service-account", body: jsonBody(defined({ ...req })), encrypt: true, decrypt: true });
  return r.credentials ?? { accessKey: "", secretKey: "" };
}

export interface SvcAccount {
  readonly parentUser?: string;
  readonly accountStatus?: string;
  readonly impliedPolicy?: boolean;
  readonly accessKey: string;
  readonly name?: string;
  readonly description?: string;
  readonly expiration?: string | null;
}

/**
 * GET /list-service-accounts?user=U, answered encrypted. Current servers
 * answer objects (madmin v3 `ServiceAccountInfo`); servers of v2.0.7's age
 * answer bare access keys, read here as objects with the key only.
 */
export async function listServiceAccounts(client: AdminClient, user: string): Promise<SvcAccount[]> {
  const r = await client.json<{ accounts?: readonly (SvcAccount | string)[] | null }>({ method: "GET", path: "/list-service-accounts", query: { user }, decrypt: true });
  return (r.accounts ?? []).map((a) => (typeof a === "string" ? { accessKey: a } : a));
}

export interface SvcInfo {
  readonly parentUser?: string;
  readonly accountStatus?: string;
  readonly impliedPolicy?: boolean;
  readonly policy?: string;
  readonly name?: string;
  readonly description?: string;
  readonly expiration?: string | null;
}

/** GET /info-service-account?accessKey=K, answered encrypted (madmin `InfoServiceAccount`). */
export function infoServiceAccount(client: AdminClient, accessKey: string): Promise<SvcInfo> {
  return client.json<SvcInfo>({ method: "GET", path: "/info-service-account", query: { accessKey }, decrypt: true });
}

/** GET /temporary-account-info?accessKey=K, answered encrypted (madmin `TemporaryAccountInfo`). */
export function temporaryAccountInfo(client: AdminClient, accessKey: string): Promise<SvcInfo> {
  return client.json<SvcInfo>({ method: "GET", path: "/temporary-account-info", query: { accessKey }, decrypt: true });
}

export interface GroupDesc {
  readonly name: string;
  readonly status: string;
  readonly members: readonly string[] | null;
  readonly policy: string;
  readonly updatedAt?: string;
}

/** GET /group?group=G, plain JSON (madmin `GetGroupDescription`). */
export function groupDescription(client: AdminClient, group: string): Promise<GroupDesc> {
  return client.json<GroupDesc>({ method: "GET", path: "/group", query: { group } });
}

export const groupCapability = "Group management";

/** PUT /update-group-members with `{group, members, groupStatus, isRemove}` in plain JSON (madmin `UpdateGroupMembers`). */
export async function updateGroupMembers(client: AdminClient, group: string, members: readonly string[], isRemove: boolean): Promise<void> {
  await client.request({ method: "PUT", path: "/update-group-members", body: jsonBody({ group, members, groupStatus: "", isRemove }) });
}

/** GET /groups (madmin `ListGroups`). */
export async function listGroups(client: AdminClient): Promise<string[]> {
  return (await client.json<string[] | null>({ method: "GET", path: "/groups" })) ?? [];
}

/** PUT /set-group-status?group=G&status=enabled|disabled (madmin `SetGroupStatus`). */
export async function setGroupStatus(client: AdminClient, group: string, status: "enabled" | "disabled"): Promise<void> {
  await client.request({ method: "PUT", path: "/set-group-status", query: { group, status } });
}
