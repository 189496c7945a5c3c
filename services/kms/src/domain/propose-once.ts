import type { Caller } from "./authz.js";
import type { Payload } from "./command.js";
import type { KmsDeps } from "./ports.js";
import { orThrow } from "./results.js";
import { recordedOutcome } from "./sessions.js";
import type { ApplyResult } from "./state.js";

/**
 * Proposes an authorised write once per request id. A repeat this replica
 * already applied is answered from the session table before `precheck`
 * runs: a retried delete must not answer "does not exist" because its own
 * first attempt removed the key. Otherwise the log decides (apply answers a
 * repeat that is still in flight from the same table).
 */
export async function proposeOnce(deps: KmsDeps, caller: Caller, payload: Payload, precheck?: () => void): Promise<ApplyResult & { ok: true }> {
  const issuedBy = caller.identity ?? "";
  const requestId = caller.requestId ?? "";
  const prior = recordedOutcome(deps.state(), issuedBy, requestId, payload);
  if (prior) return orThrow(prior);
  precheck?.();
  return orThrow(await deps.sink.propose(payload, issuedBy, requestId));
}
