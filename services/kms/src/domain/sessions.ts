import type { Identity } from "./identity.js";
import type { Payload } from "./command.js";
import type { ApplyResult, KmsState, Session } from "./state.js";

/**
 * The replicated session table (Raft thesis §6.3): the first outcome of each
 * recent write by (caller, request id). A write retried after an unknown
 * outcome (a timeout, a lost leader, a client's failover) reaches the log
 * again; apply answers the repeat from here instead of applying it twice, so
 * a retried create answers success, never "already exists".
 *
 * Bounded by count, oldest first: at 1,000 writes/s 100,000 records cover
 * more than a minute and a half, longer than any client retries one write.
 * Eviction follows apply order, so every replica evicts the same records.
 */
export const sessionLimit = 100_000;

/** Request ids: what a UUID, ULID or base64 token needs, nothing that could split a key. */
export const requestIdPattern = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export const sessionKey = (issuedBy: Identity, requestId: string): string => `${issuedBy} ${requestId}`;

export function targetOf(p: Payload): string {
  switch (p.kind) {
    case "createEnclave":
    case "deleteEnclave":
      return `${p.kind}/${p.name}`;
    case "createIdentity":
    case "deleteIdentity":
      return `${p.kind}/${p.enclave}/${p.identity}`;
    case "assignPolicy":
    case "unassignPolicy":
      return `${p.kind}/${p.enclave}/${p.name}/${p.identity}`;
    case "deleteKeyVersion":
      return `${p.kind}/${p.enclave}/${p.name}/${p.version}`;
    default:
      return `${p.kind}/${p.enclave}/${p.name}`;
  }
}

export const reusedRequestId: ApplyResult = { ok: false, reason: "invalid_argument", message: "request id was already used for a different request" };

/** The first outcome of this write if the table holds it: the answer to a repeat. */
export function recordedOutcome(state: KmsState, issuedBy: Identity, requestId: string, payload: Payload): ApplyResult | undefined {
  if (requestId === "") return undefined;
  const s = state.sessions.get(sessionKey(issuedBy, requestId));
  if (!s) return undefined;
  return s.target === targetOf(payload) ? s.result : reusedRequestId;
}

export function remember(sessions: Map<string, Session>, key: string, session: Session): void {
  sessions.set(key, session);
  while (sessions.size > sessionLimit) {
    const oldest = sessions.keys().next();
    if (oldest.done) break;
    sessions.delete(oldest.value);
  }
}
