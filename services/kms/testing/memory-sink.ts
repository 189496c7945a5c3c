import { apply } from "../src/domain/apply.js";
import type { CommandSink } from "../src/domain/ports.js";
import type { KmsState } from "../src/domain/state.js";

/**
 * A command sink that applies at once, without persistence: the in-memory
 * fake for tests, and the shape the durable log and Raft implement.
 */
export function createMemorySink(state: KmsState, now: () => string = () => new Date().toISOString()): CommandSink {
  return {
    propose(payload, issuedBy, requestId = "") {
      return Promise.resolve(apply(state, { requestId, issuedAt: now(), issuedBy, payload }));
    },
  };
}
