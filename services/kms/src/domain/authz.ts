import { AppError } from "@mc/shared/errors";
import { spellingsOf, type CanonicalRequest } from "./canonical-request.js";
import type { Identity } from "./identity.js";
import { isAllowed } from "./policy.js";
import type { Enclave, KmsState } from "./state.js";

/** Who calls, with the canonical request (enclave, route, path) it is checked as. */
export interface Caller extends CanonicalRequest {
  /** Undefined when the client sent no certificate. */
  readonly identity: Identity | undefined;
  /** The client's name for this write across its retries (`kms-request-id`), if it sent one. */
  readonly requestId?: string;
}

/** policy: root, enclave admin (key/policy/identity routes) or a policy allows; root: root only; self: any certificate. */
export type Scope = "policy" | "root" | "self";

export function unauthenticated(): AppError {
  return new AppError("unauthenticated", "tls: client certificate is required");
}

export function forbidden(): AppError {
  return new AppError("permission_denied", "not authorized: insufficient permissions");
}

const adminRoutes = ["/v1/key/", "/v1/policy/", "/v1/identity/"];

/**
 * The one authorisation check, shared by the REST and Connect edges. Returns
 * the enclave for routes that work inside one (root may name any existing
 * enclave; others only one they are registered in).
 */
export function authorize(state: KmsState, root: Identity, caller: Caller, scope: Scope): Enclave | undefined {
  const id = caller.identity;
  if (id === undefined) throw unauthenticated();
  const enclave = state.enclaves.get(caller.enclave);
  if (id === root) {
    if (scope !== "root" && !enclave) throw new AppError("not_found", "enclave does not exist");
    return enclave;
  }
  if (scope === "root") throw forbidden();
  const entry = enclave?.identities.get(id);
  if (scope === "self") return enclave;
  if (!enclave || !entry) throw forbidden();
  if (entry.admin && adminRoutes.some((p) => caller.path.startsWith(p))) return enclave;
  const rules = [...entry.policies].flatMap((name) => {
    const p = enclave.policies.get(name);
    return p ? [p] : [];
  });
  if (!isAllowed(rules, spellingsOf(caller))) throw forbidden();
  return enclave;
}
