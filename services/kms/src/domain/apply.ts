import type { Command, Payload } from "./command.js";
import { intern, versionsOf } from "./packed-version.js";
import { recordedOutcome, remember, sessionKey, targetOf } from "./sessions.js";
import { NamedMap } from "./sorted-names.js";
import type { ApplyResult, Enclave, KmsState } from "./state.js";

const ok: ApplyResult = { ok: true };

function fail(reason: "not_found" | "already_exists" | "invalid_argument", message: string): ApplyResult {
  return { ok: false, reason, message };
}

/**
 * Applies one command to the state, deterministically: the same commands in
 * the same order give the same state on every node (no clock, randomness or
 * I/O). A command that conflicts with the state (a key created twice by two
 * racing proposers) leaves the state unchanged and returns the error, so the
 * log never needs rewriting. The state's maps are updated in place, which
 * keeps a command O(1) however many keys exist, but each record is replaced,
 * never changed, so a snapshot can capture the maps and serialize later. A
 * write with a request id applies once: a repeat gets the first outcome.
 */
export function apply(state: KmsState, command: Command, index: bigint = state.appliedIndex + 1n): ApplyResult {
  // Raft passes its log index (entries such as no-ops and membership changes
  // never reach this state machine); the local log is gapless.
  state.appliedIndex = index;
  if (command.requestId === "") return applyPayload(state, command, command.payload);
  const prior = recordedOutcome(state, command.issuedBy, command.requestId, command.payload);
  if (prior) return prior;
  const result = applyPayload(state, command, command.payload);
  remember(state.sessions, sessionKey(command.issuedBy, command.requestId), { target: targetOf(command.payload), result });
  return result;
}

function without(set: ReadonlySet<string>, name: string): Set<string> {
  const out = new Set(set);
  out.delete(name);
  return out;
}

function enclaveOf(state: KmsState, name: string): Enclave | undefined {
  return state.enclaves.get(name);
}

/**
 * Copy-on-write below the maps: a key, policy or identity is never changed
 * in place (nor its versions or policy set), only replaced by a new object,
 * so a snapshot's shallow copies of the maps stay as of its index while the
 * commands after it apply.
 */
function applyPayload(state: KmsState, cmd: Command, p: Payload): ApplyResult {
  const meta = { createdAt: cmd.issuedAt, createdBy: cmd.issuedBy };
  if (p.kind === "createEnclave") {
    if (state.enclaves.has(p.name)) return fail("already_exists", "enclave already exists");
    state.enclaves.set(p.name, { name: p.name, ...meta, keys: new NamedMap(), policies: new Map(), identities: new Map() });
    return ok;
  }
  if (p.kind === "deleteEnclave") {
    if (!state.enclaves.delete(p.name)) return fail("not_found", "enclave does not exist");
    return ok;
  }
  const enclave = enclaveOf(state, p.enclave);
  if (!enclave) return fail("not_found", "enclave does not exist");
  switch (p.kind) {
    case "createKey":
    case "importKey": {
      if (enclave.keys.has(p.name)) return fail("already_exists", "key already exists");
      // Packed (packed-version.ts): most keys never get a second version.
      const versions = versionsOf({ version: 1, material: p.material, ...meta });
      enclave.keys.set(p.name, { name: p.name, algorithm: intern(p.algorithm), maxVersion: 1, versions });
      return { ok: true, version: 1 };
    }
    case "addKeyVersion": {
      const key = enclave.keys.get(p.name);
      if (!key) return fail("not_found", "key does not exist");
      const version = key.maxVersion + 1;
      const versions = new Map(key.versions).set(version, { version, material: p.material, ...meta });
      enclave.keys.set(p.name, { ...key, maxVersion: version, versions });
      return { ok: true, version };
    }
    case "deleteKey":
      if (!enclave.keys.delete(p.name)) return fail("not_found", "key does not exist");
      return ok;
    case "deleteKeyVersion": {
      const key = enclave.keys.get(p.name);
      if (!key) return fail("not_found", "key does not exist");
      if (!key.versions.has(p.version)) return fail("not_found", "key version does not exist");
      const versions = new Map(key.versions);
      versions.delete(p.version);
      if (versions.size === 0) enclave.keys.delete(p.name);
      else enclave.keys.set(p.name, { ...key, versions });
      return ok;
    }
    case "createPolicy":
      if (enclave.policies.has(p.name)) return fail("already_exists", "policy already exists");
      enclave.policies.set(p.name, { name: p.name, allow: [...p.allow], deny: [...p.deny], ...meta });
      return ok;
    case "deletePolicy":
      if (!enclave.policies.delete(p.name)) return fail("not_found", "policy does not exist");
      for (const id of enclave.identities.values()) {
        if (id.policies.has(p.name)) enclave.identities.set(id.identity, { ...id, policies: without(id.policies, p.name) });
      }
      return ok;
    case "assignPolicy":
    case "unassignPolicy": {
      if (!enclave.policies.has(p.name)) return fail("not_found", "policy does not exist");
      const id = enclave.identities.get(p.identity);
      if (!id) return fail("not_found", "identity does not exist");
      const policies = p.kind === "assignPolicy" ? new Set(id.policies).add(p.name) : without(id.policies, p.name);
      enclave.identities.set(p.identity, { ...id, policies });
      return ok;
    }
    case "createIdentity": {
      if (enclave.identities.has(p.identity)) return fail("already_exists", "identity already exists");
      if (p.policy !== "" && !enclave.policies.has(p.policy)) return fail("not_found", "policy does not exist");
      const policies = new Set(p.policy === "" ? [] : [p.policy]);
      enclave.identities.set(p.identity, { identity: p.identity, admin: p.admin, policies, ...meta });
      return ok;
    }
    case "deleteIdentity":
      if (!enclave.identities.delete(p.identity)) return fail("not_found", "identity does not exist");
      return ok;
  }
}
