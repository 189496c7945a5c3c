import type { Caller } from "./authz.js";
import { parseCanonicalPath } from "./canonical-request.js";
import type { Identity } from "./identity.js";

/** The fields of an audit event that decide who may see it. */
export interface AuditFacts {
  readonly enclave: string;
  readonly path: string;
}

// Enclave and cluster routes act on the whole system, whatever enclave
// header came with them: their events belong to root alone.
const systemRoutes = ["/v1/enclave/", "/v1/cluster/"];

function isEnclaveEvent(e: AuditFacts): boolean {
  const request = parseCanonicalPath(e.path, e.enclave);
  return request !== undefined && !systemRoutes.some((p) => request.route.startsWith(p));
}

/**
 * Which audit events a `/v1/log/audit` subscriber receives (contract §9):
 * root all, anyone else only the events of the enclave it subscribed in. An
 * event whose path never became a canonical request (a refused spelling, an
 * unknown route) cannot be placed in an enclave, so only root sees it.
 */
export function auditVisibility(root: Identity, caller: Caller): (e: AuditFacts) => boolean {
  if (caller.identity === root) return () => true;
  return (e) => e.enclave === caller.enclave && isEnclaveEvent(e);
}
