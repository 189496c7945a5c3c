import { apply } from "./apply.js";
import type { CommandSink } from "./ports.js";
import type { KmsState } from "./state.js";

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
