import { AppError } from "@mc/shared/errors";
import { checkGrant, checkRemoval } from "./admin-minting.js";
import { auditVisibility, type AuditFacts } from "./audit-scope.js";
import { authorize, type Caller } from "./authz.js";
import { checkIdentity, type Identity } from "./identity.js";
import { checkName, pageOf, type Page } from "./names.js";
import { checkRules, type PolicyRules } from "./policy.js";
import type { Payload } from "./command.js";
import type { KmsDeps } from "./ports.js";
import { proposeOnce } from "./propose-once.js";
import type { Enclave, IdentityEntry, Policy } from "./state.js";

export interface IdentityDescription {
  readonly identity: Identity;
  readonly admin: boolean;
  readonly policies: readonly string[];
  readonly createdAt: string;
  readonly createdBy: string;
}

export interface SelfDescription extends IdentityDescription {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

export interface EnclaveDescription {
  readonly name: string;
  readonly createdAt: string;
  readonly createdBy: string;
}

function policyOf(enclave: Enclave | undefined, name: string): Policy {
  const p = enclave?.policies.get(name);
  if (!p) throw new AppError("not_found", "policy does not exist");
  return p;
}

function identityOf(enclave: Enclave | undefined, id: Identity): IdentityEntry {
  const e = enclave?.identities.get(id);
  if (!e) throw new AppError("not_found", "identity does not exist");
  return e;
}

function describeEntry(e: IdentityEntry): IdentityDescription {
  return { identity: e.identity, admin: e.admin, policies: [...e.policies].sort(), createdAt: e.createdAt, createdBy: e.createdBy };
}

const union = (lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())].sort();

/** Policy, identity and enclave use cases. */
export function createAdminOps(deps: KmsDeps) {
  const auth = (caller: Caller, scope: "policy" | "root" | "self" = "policy") => authorize(deps.state(), deps.rootIdentity, caller, scope);
  const propose = (caller: Caller, payload: Payload, precheck?: () => void) => proposeOnce(deps, caller, payload, precheck);
  // Answered only once no node can authorise on a state from before it (auth-lease.ts).
  const revoke = async (caller: Caller, payload: Payload): Promise<void> => {
    await propose(caller, payload);
    await deps.lease?.afterRevocation();
  };
  const inPolicy = (caller: Caller, name: string) => {
    checkName("policy", name);
    return auth(caller);
  };

  return {
    async createPolicy(caller: Caller, name: string, rules: PolicyRules): Promise<void> {
      inPolicy(caller, name);
      checkRules(rules);
      await propose(caller, { kind: "createPolicy", enclave: caller.enclave, name, allow: rules.allow, deny: rules.deny });
    },
    describePolicy(caller: Caller, name: string) {
      const p = policyOf(inPolicy(caller, name), name);
      return { name: p.name, createdAt: p.createdAt, createdBy: p.createdBy };
    },
    readPolicy(caller: Caller, name: string) {
      const p = policyOf(inPolicy(caller, name), name);
      return { name: p.name, allow: [...p.allow], deny: [...p.deny], createdAt: p.createdAt, createdBy: p.createdBy };
    },
    listPolicies(caller: Caller, pattern: string, continueAt: string, limit: number): Page {
      return pageOf(auth(caller)?.policies.keys() ?? [], pattern, continueAt, limit);
    },
    async assignPolicy(caller: Caller, name: string, identity: string, assign: boolean): Promise<void> {
      inPolicy(caller, name);
      const id = checkIdentity(identity);
      if (assign) await propose(caller, { kind: "assignPolicy", enclave: caller.enclave, name, identity: id });
      else await revoke(caller, { kind: "unassignPolicy", enclave: caller.enclave, name, identity: id });
    },
    async deletePolicy(caller: Caller, name: string): Promise<void> {
      inPolicy(caller, name);
      await revoke(caller, { kind: "deletePolicy", enclave: caller.enclave, name });
    },

    async createIdentity(caller: Caller, identity: string, opts: { policy?: string; admin?: boolean }): Promise<void> {
      const id = checkIdentity(identity);
      auth(caller);
      const policy = opts.policy ?? "";
      if (policy !== "") checkName("policy", policy);
      if (id === deps.rootIdentity) throw new AppError("already_exists", "identity already exists");
      const admin = opts.admin ?? false;
      checkGrant(deps.state(), deps.rootIdentity, caller, { admin, policy });
      await propose(caller, { kind: "createIdentity", enclave: caller.enclave, identity: id, admin, policy });
    },
    describeIdentity(caller: Caller, identity: string): IdentityDescription {
      const id = checkIdentity(identity);
      if (id === deps.rootIdentity) {
        auth(caller);
        return { identity: id, admin: true, policies: [], createdAt: "", createdBy: "" };
      }
      return describeEntry(identityOf(auth(caller), id));
    },
    describeSelf(caller: Caller): SelfDescription {
      const enclave = auth(caller, "self");
      const id = caller.identity ?? "";
      const entry = enclave?.identities.get(id);
      if (!entry) return { identity: id, admin: id === deps.rootIdentity, policies: [], createdAt: "", createdBy: "", allow: [], deny: [] };
      const rules = [...entry.policies].flatMap((n) => enclave?.policies.get(n) ?? []);
      return { ...describeEntry(entry), allow: union(rules.map((r) => r.allow)), deny: union(rules.map((r) => r.deny)) };
    },
    listIdentities(caller: Caller, pattern: string, continueAt: string, limit: number): Page {
      return pageOf(auth(caller)?.identities.keys() ?? [], pattern, continueAt, limit);
    },
    async deleteIdentity(caller: Caller, identity: string): Promise<void> {
      const id = checkIdentity(identity);
      checkRemoval(deps.rootIdentity, caller, auth(caller)?.identities.get(id));
      await revoke(caller, { kind: "deleteIdentity", enclave: caller.enclave, identity: id });
    },

    async createEnclave(caller: Caller, name: string): Promise<void> {
      checkName("enclave", name);
      auth(caller, "root");
      await propose(caller, { kind: "createEnclave", name });
    },
    async deleteEnclave(caller: Caller, name: string): Promise<void> {
      checkName("enclave", name);
      auth(caller, "root");
      await revoke(caller, { kind: "deleteEnclave", name });
    },
    describeEnclave(caller: Caller, name: string): EnclaveDescription {
      checkName("enclave", name);
      auth(caller, "root");
      const e = deps.state().enclaves.get(name);
      if (!e) throw new AppError("not_found", "enclave does not exist");
      return { name: e.name, createdAt: e.createdAt, createdBy: e.createdBy };
    },
    listEnclaves(caller: Caller, pattern: string, continueAt: string, limit: number): Page {
      auth(caller, "root");
      return pageOf(deps.state().enclaves.keys(), pattern, continueAt, limit);
    },
    /** For routes outside the domain (status, audit): the same check. */
    authorize: auth,
    /** Authorises an audit subscription and says which events it may see. */
    auditScope(caller: Caller): (e: AuditFacts) => boolean {
      auth(caller);
      return auditVisibility(deps.rootIdentity, caller);
    },
  };
}

export type AdminOps = ReturnType<typeof createAdminOps>;
