import { EnclaveService } from "../../../gen/kms/v1/enclave_pb.js";
import { IdentityService } from "../../../gen/kms/v1/identity_pb.js";
import { PolicyService } from "../../../gen/kms/v1/policy_pb.js";
import { optBool, optString, reqString, stringList } from "./body.js";
import { unary, type KmsOperation } from "./operation.js";
import { at, body, pageOf, pageQuery, stale } from "./rest-in.js";

const p = PolicyService.method;
const i = IdentityService.method;
const e = EnclaveService.method;
const done = {};

/** `/v1/policy/...`, `/v1/identity/...` and `/v1/enclave/...` (contract §2, §4). */
export const adminOperations: readonly KmsOperation[] = [
  unary({
    rpc: p.createPolicy, path: "/v1/policy/create/:name", param: "name", read: "fresh", changes: true,
    rest: {
      method: "POST",
      out: "empty",
      in: (req) => {
        const b = body(req);
        return { name: at(req, "name"), allow: stringList(b, "allow"), deny: stringList(b, "deny") };
      },
    },
    run: async ({ kms }, c, r) => {
      await kms.admin.createPolicy(c, r.name, { allow: r.allow, deny: r.deny });
      return done;
    },
  }),
  unary({
    rpc: p.describePolicy, path: "/v1/policy/describe/:name", param: "name", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ name: at(req, "name"), stale: stale(req) }) },
    run: ({ kms }, c, r) => kms.admin.describePolicy(c, r.name),
  }),
  unary({
    rpc: p.readPolicy, path: "/v1/policy/read/:name", param: "name", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ name: at(req, "name"), stale: stale(req) }) },
    run: ({ kms }, c, r) => kms.admin.readPolicy(c, r.name),
  }),
  unary({
    rpc: p.listPolicies, path: "/v1/policy/list/:pattern", param: "pattern", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ pattern: at(req, "pattern"), ...pageQuery(req) }) },
    run: ({ kms }, c, r) => pageOf(kms.admin.listPolicies(c, r.pattern, r.continueAt, r.limit)),
  }),
  unary({
    rpc: p.assignPolicy, path: "/v1/policy/assign/:name", param: "name", read: "fresh", changes: true,
    rest: { method: "POST", out: "empty", in: (req) => ({ name: at(req, "name"), identity: reqString(body(req), "identity") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.assignPolicy(c, r.name, r.identity, true);
      return done;
    },
  }),
  unary({
    rpc: p.unassignPolicy, path: "/v1/policy/unassign/:name", param: "name", read: "fresh", changes: true,
    rest: { method: "POST", out: "empty", in: (req) => ({ name: at(req, "name"), identity: reqString(body(req), "identity") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.assignPolicy(c, r.name, r.identity, false);
      return done;
    },
  }),
  unary({
    rpc: p.deletePolicy, path: "/v1/policy/delete/:name", param: "name", read: "fresh", changes: true,
    rest: { method: "DELETE", out: "empty", in: (req) => ({ name: at(req, "name") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.deletePolicy(c, r.name);
      return done;
    },
  }),
  unary({
    rpc: i.createIdentity, path: "/v1/identity/create/:id", param: "id", read: "fresh", changes: true,
    rest: {
      method: "POST",
      out: "empty",
      in: (req) => {
        const b = body(req, true);
        return { id: at(req, "id"), policy: optString(b, "policy") ?? "", admin: optBool(b, "admin") ?? false };
      },
    },
    run: async ({ kms }, c, r) => {
      await kms.admin.createIdentity(c, r.id, { policy: r.policy, admin: r.admin });
      return done;
    },
  }),
  unary({
    rpc: i.describeIdentity, path: "/v1/identity/describe/:id", param: "id", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ id: at(req, "id"), stale: stale(req) }) },
    run: ({ kms }, c, r) => {
      const d = kms.admin.describeIdentity(c, r.id);
      return { ...d, policies: [...d.policies] };
    },
  }),
  unary({
    rpc: i.describeSelf, path: "/v1/identity/self/describe", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ stale: stale(req) }) },
    run: ({ kms }, c) => {
      const d = kms.admin.describeSelf(c);
      return { ...d, policies: [...d.policies], allow: [...d.allow], deny: [...d.deny] };
    },
  }),
  unary({
    rpc: i.listIdentities, path: "/v1/identity/list/:pattern", param: "pattern", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ pattern: at(req, "pattern"), ...pageQuery(req) }) },
    run: ({ kms }, c, r) => {
      const page = kms.admin.listIdentities(c, r.pattern, r.continueAt, r.limit);
      return { identities: [...page.items], continueAt: page.continueAt };
    },
  }),
  unary({
    rpc: i.deleteIdentity, path: "/v1/identity/delete/:id", param: "id", read: "fresh", changes: true,
    rest: { method: "DELETE", out: "empty", in: (req) => ({ id: at(req, "id") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.deleteIdentity(c, r.id);
      return done;
    },
  }),
  unary({
    rpc: e.createEnclave, path: "/v1/enclave/create/:name", param: "name", read: "fresh", root: true, changes: true,
    rest: { method: "POST", out: "empty", in: (req) => ({ name: at(req, "name") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.createEnclave(c, r.name);
      return done;
    },
  }),
  unary({
    rpc: e.deleteEnclave, path: "/v1/enclave/delete/:name", param: "name", read: "fresh", root: true, changes: true,
    rest: { method: "DELETE", out: "empty", in: (req) => ({ name: at(req, "name") }) },
    run: async ({ kms }, c, r) => {
      await kms.admin.deleteEnclave(c, r.name);
      return done;
    },
  }),
  unary({
    rpc: e.describeEnclave, path: "/v1/enclave/describe/:name", param: "name", read: "linearizable", root: true,
    rest: { method: "GET", in: (req) => ({ name: at(req, "name"), stale: stale(req) }) },
    run: ({ kms }, c, r) => kms.admin.describeEnclave(c, r.name),
  }),
  unary({
    rpc: e.listEnclaves, path: "/v1/enclave/list/:pattern", param: "pattern", read: "linearizable", root: true,
    rest: { method: "GET", in: (req) => ({ pattern: at(req, "pattern"), ...pageQuery(req) }) },
    run: ({ kms }, c, r) => pageOf(kms.admin.listEnclaves(c, r.pattern, r.continueAt, r.limit)),
  }),
];
