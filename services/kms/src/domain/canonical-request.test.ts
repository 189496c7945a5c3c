import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createSodiumCrypto } from "../adapters/sodium-crypto.js";
import { auditVisibility } from "./audit-scope.js";
import type { Caller } from "./authz.js";
import { canonicalRequest, parseCanonicalPath, spellingsOf } from "./canonical-request.js";
import { hexOfIdentity, identityOfHash } from "./identity.js";
import { createKms } from "./kms.js";
import { createMemorySink } from "../../testing/memory-sink.js";
import { canonicalPattern, isAllowed } from "./policy.js";
import { createEmptyState } from "./state.js";

const alice = identityOfHash(new Uint8Array(32).fill(0xab));
const hex = hexOfIdentity(alice);

const thrown = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return "no error";
};

const canonical = suite("kms domain: canonical request");

canonical("should give every spelling of an identity the one h1 path", () => {
  for (const spelling of [alice, hex, hex.toUpperCase(), `${hex.slice(0, 7).toUpperCase()}${hex.slice(7)}`]) {
    const r = canonicalRequest("/v1/identity/delete/:id", { id: spelling }, "default");
    assert.equal(r, { route: "/v1/identity/delete/:id", enclave: "default", path: `/v1/identity/delete/${alice}`, params: { id: alice } }, spelling);
  }
});

canonical("should refuse what has no canonical form with the contract's 400", () => {
  const bad = [`${alice}/`, `/${alice}`, `./${hex}`, `x/../${hex}`, ` ${hex}`, `${hex}\n`, "", `h1%3A${alice.slice(3)}`, `H1:${alice.slice(3)}`, `${alice.slice(0, -1)}B`, hex.slice(1), `${hex}0`];
  for (const id of bad) assert.is(thrown(() => canonicalRequest("/v1/identity/delete/:id", { id }, "default")), `identity '${id}' is not a valid identity`, JSON.stringify(id));
  for (const name of ["./k", "k/", "..", "k%2F", "-k", "_", "a".repeat(81), ""]) {
    assert.is(thrown(() => canonicalRequest("/v1/key/delete/:name", { name }, "default")), `key name '${name}' is empty, too long or contains invalid characters`, name);
  }
  assert.is(thrown(() => canonicalRequest("/v1/policy/read/:name", { name: "a.b" }, "default")), "policy name 'a.b' is empty, too long or contains invalid characters");
  assert.is(thrown(() => canonicalRequest("/v1/key/describe/:name", { name: "k" }, "a/b")), "enclave name 'a/b' is empty, too long or contains invalid characters");
  for (const pattern of ["a/*", "a*b", "**", "../*", "a b*"]) {
    assert.is(thrown(() => canonicalRequest("/v1/key/list/:pattern", { pattern }, "default")), `key name '${pattern}' is empty, too long or contains invalid characters`, pattern);
  }
  assert.is(thrown(() => canonicalRequest("/v1/identity/list/:pattern", { pattern: "h1:/*" }, "default")), "identity 'h1:/*' is not a valid identity");
});

canonical("should keep names and list patterns as they are", () => {
  assert.is(canonicalRequest("/v1/key/generate/:name", { name: "App-1" }, "other").path, "/v1/key/generate/App-1");
  for (const pattern of ["*", "app-*", "app-1", "_*"]) assert.is(canonicalRequest("/v1/key/list/:pattern", { pattern }, "default").params.pattern, pattern);
  assert.is(canonicalRequest("/v1/identity/list/:pattern", { pattern: hex }, "default").path, `/v1/identity/list/${alice}`);
  assert.is(canonicalRequest("/v1/identity/list/:pattern", { pattern: "h1:ab*" }, "default").path, "/v1/identity/list/h1:ab*");
  assert.is(canonicalRequest("/v1/identity/self/describe", {}, "default").path, "/v1/identity/self/describe");
  assert.throws(() => canonicalRequest("/v1/key/nothing/:name", { name: "k" }, "default"), /unknown route template/);
});

canonical("should read back only paths already in canonical form", () => {
  assert.is(parseCanonicalPath(`/v1/identity/delete/${alice}`, "default")?.route, "/v1/identity/delete/:id");
  assert.is(parseCanonicalPath("/v1/identity/self/describe", "default")?.route, "/v1/identity/self/describe");
  assert.is(parseCanonicalPath("/v1/key/list/app-*", "default")?.route, "/v1/key/list/:pattern");
  for (const path of [`/v1/identity/delete/${hex}`, "/v1//key/create/k", "/v1/key/create/k/", "/v1/key/../enclave/create/k", "/kms.v1.KeyService/Generate", "/v1/key/create/a.b"]) {
    assert.is(parseCanonicalPath(path, "default"), undefined, path);
  }
});

const patterns = suite("kms domain: policies on the canonical request");

patterns("should match a pattern written in either spelling against the request", () => {
  const request = canonicalRequest("/v1/identity/delete/:id", { id: hex }, "default");
  assert.equal(spellingsOf(request), [`/v1/identity/delete/${alice}`, `/v1/identity/delete/${hex}`]);
  const allowAll = { allow: ["/v1/identity/*"], deny: [] };
  for (const deny of [`/v1/identity/delete/${alice}`, `/v1/identity/delete/${hex}`, `/v1/identity/delete/${hex.toUpperCase()}`, `/v1/identity/delete/${hex.slice(0, 6).toUpperCase()}*`, "/v1/identity/delete/h1:*"]) {
    assert.not.ok(isAllowed([allowAll, { allow: [], deny: [deny] }], spellingsOf(request)), deny);
  }
  const other = canonicalRequest("/v1/identity/delete/:id", { id: identityOfHash(new Uint8Array(32).fill(1)) }, "default");
  assert.ok(isAllowed([allowAll, { allow: [], deny: [`/v1/identity/delete/${hex}`, `/v1/identity/delete/${hex.slice(0, 6)}*`] }], spellingsOf(other)));
  assert.ok(isAllowed([{ allow: [`/v1/identity/describe/${hex.toUpperCase()}`], deny: [] }], spellingsOf(canonicalRequest("/v1/identity/describe/:id", { id: alice }, "default"))));
  assert.is(canonicalPattern(`/v1/identity/create/${hex}`), `/v1/identity/create/${alice}`);
  assert.is(canonicalPattern("/v1/key/create/ABC"), "/v1/key/create/ABC");
});

const audit = suite("kms domain: audit visibility");

audit("should show a subscriber its enclave's events only, root all", () => {
  const root = identityOfHash(new Uint8Array(32).fill(7));
  const at = (identity: string, enclave: string): Caller => ({ ...canonicalRequest("/v1/log/audit", {}, enclave), identity });
  const mine = auditVisibility(root, at(alice, "default"));
  assert.ok(mine({ enclave: "default", path: "/v1/key/create/k" }));
  assert.ok(mine({ enclave: "default", path: `/v1/identity/delete/${alice}` }));
  assert.not.ok(mine({ enclave: "other", path: "/v1/key/create/k" }));
  assert.not.ok(mine({ enclave: "default", path: "/v1/enclave/create/secret" }));
  assert.not.ok(mine({ enclave: "default", path: "/v1/cluster/status" }));
  assert.not.ok(mine({ enclave: "default", path: "/v1/key/../enclave/create/secret" }));
  const all = auditVisibility(root, at(root, "default"));
  assert.ok(all({ enclave: "other", path: "/v1/enclave/create/secret" }));
});

const minting = suite("kms domain: admin minting");

minting("should let only root mint or remove admins and grant only assignable policies", async () => {
  await initCrypto();
  const root = identityOfHash(new Uint8Array(32).fill(1));
  const [user, assigner, admin, admin2, fresh] = [2, 3, 4, 5, 6].map((n) => identityOfHash(new Uint8Array(32).fill(n)));
  const state = createEmptyState();
  const kms = createKms({ state: () => state, sink: createMemorySink(state, () => "t"), crypto: createSodiumCrypto(new Uint8Array(32).fill(9)), rootIdentity: root });
  const as = (identity: string | undefined, route: string, params: Record<string, string> = {}): Caller => ({ ...canonicalRequest(route, params, "default"), identity });
  const create = (who: string, id: string, opts: { admin?: boolean; policy?: string }) => kms.admin.createIdentity(as(who, "/v1/identity/create/:id", { id }), id, opts);
  const forbidden = (p: Promise<unknown>) => p.then(() => assert.unreachable("allowed"), (e: Error) => assert.is(e.message, "not authorized: insufficient permissions"));
  await kms.admin.createEnclave(as(root, "/v1/enclave/create/:name", { name: "default" }), "default");
  await kms.admin.createPolicy(as(root, "/v1/policy/create/:name", { name: "ids" }), "ids", { allow: ["/v1/identity/*"], deny: [] });
  await kms.admin.createPolicy(as(root, "/v1/policy/create/:name", { name: "ids-assign" }), "ids-assign", { allow: ["/v1/identity/*", "/v1/policy/assign/ids"], deny: [] });
  await create(root, user ?? "", { policy: "ids" });
  await create(root, assigner ?? "", { policy: "ids-assign" });
  await create(root, admin ?? "", { admin: true });
  await create(root, admin2 ?? "", { admin: true });
  await forbidden(create(user ?? "", fresh ?? "", { admin: true }));
  await forbidden(create(user ?? "", fresh ?? "", { policy: "ids" }));
  await forbidden(create(admin ?? "", fresh ?? "", { admin: true }));
  await forbidden(kms.admin.deleteIdentity(as(admin, "/v1/identity/delete/:id", { id: hexOfIdentity(admin2 ?? "") }), hexOfIdentity(admin2 ?? "")));
  await forbidden(kms.admin.deleteIdentity(as(user, "/v1/identity/delete/:id", { id: admin ?? "" }), admin ?? ""));
  await create(assigner ?? "", fresh ?? "", { policy: "ids" });
  await kms.admin.deleteIdentity(as(admin, "/v1/identity/delete/:id", { id: fresh ?? "" }), fresh ?? "");
  await create(admin ?? "", fresh ?? "", { policy: "ids-assign" });
  assert.equal(kms.admin.describeIdentity(as(root, "/v1/identity/describe/:id", { id: fresh ?? "" }), fresh ?? "").policies, ["ids-assign"]);
});

canonical.run();
patterns.run();
audit.run();
minting.run();
