import { authorize, forbidden, type Caller } from "./authz.js";
import { canonicalRequest } from "./canonical-request.js";
import type { Identity } from "./identity.js";
import type { IdentityEntry, KmsState } from "./state.js";

/** What a new identity is given at creation (contract §4, identity create). */
export interface Grant {
  readonly admin: boolean;
  /** A first policy, or "" for none. */
  readonly policy: string;
}

/**
 * The admin-minting rule (docs/admin-minting.md), checked after the route's
 * own authorisation. Only root makes an admin; anyone else may hand out a
 * policy only where assigning that policy is allowed to them, so creating an
 * identity never grants more than `/v1/policy/assign/<name>` would.
 */
export function checkGrant(state: KmsState, root: Identity, caller: Caller, grant: Grant): void {
  if (caller.identity === root) return;
  if (grant.admin) throw forbidden();
  if (grant.policy === "") return;
  const assign = { ...canonicalRequest("/v1/policy/assign/:name", { name: grant.policy }, caller.enclave), identity: caller.identity };
  authorize(state, root, assign, "policy");
}

/** Only root removes an admin; an enclave admin (or a user) removes users. */
export function checkRemoval(root: Identity, caller: Caller, target: IdentityEntry | undefined): void {
  if (target?.admin && caller.identity !== root) throw forbidden();
}
