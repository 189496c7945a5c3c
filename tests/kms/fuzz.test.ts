import fc from "fast-check";
import * as assert from "uvu/assert";
import { fuzzSeed, fuzzSuite } from "./fuzz-server.js";

/**
 * 5,000 generated malformed requests across all routes: every answer is a
 * 4xx with the contract's JSON error, the process survives, and a valid
 * request still works afterwards.
 */
const fuzz = fuzzSuite("kms malformed requests (fast-check)");

interface Req {
  readonly method: string;
  readonly path: string;
  readonly body?: string | undefined;
  readonly headers?: Record<string, string>;
  readonly expect: "4xx" | 405 | 413;
}

const bodyRoutes = ["/v1/key/create/k", "/v1/key/import/k", "/v1/key/generate/k", "/v1/key/encrypt/k", "/v1/key/decrypt/k", "/v1/key/hmac/k", "/v1/policy/create/p", "/v1/policy/assign/p", "/v1/policy/unassign/p", "/v1/identity/create/h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/v1/cluster/add", "/v1/cluster/remove"];
const requiredBody = ["/v1/key/import/k", "/v1/key/encrypt/k", "/v1/key/decrypt/k", "/v1/key/hmac/k", "/v1/policy/assign/p", "/v1/policy/unassign/p"];
const nameRoutes: [string, string][] = [
  ["POST", "/v1/key/create/"], ["POST", "/v1/key/import/"], ["GET", "/v1/key/describe/"], ["DELETE", "/v1/key/delete/"],
  ["POST", "/v1/key/generate/"], ["POST", "/v1/key/encrypt/"], ["POST", "/v1/key/decrypt/"], ["POST", "/v1/key/hmac/"],
  ["POST", "/v1/policy/create/"], ["GET", "/v1/policy/describe/"], ["GET", "/v1/policy/read/"], ["DELETE", "/v1/policy/delete/"],
  ["POST", "/v1/enclave/create/"], ["GET", "/v1/enclave/describe/"], ["DELETE", "/v1/enclave/delete/"],
  ["GET", "/v1/identity/describe/"], ["DELETE", "/v1/identity/delete/"],
];
const allRoutes: [string, string][] = [...nameRoutes.map(([m, p]): [string, string] => [m, `${p}k`]), ["GET", "/v1/key/list/*"], ["GET", "/v1/status"], ["GET", "/v1/identity/self/describe"], ["GET", "/v1/cluster/status"], ["GET", "/v1/health/live"], ["GET", "/version"]];

const validName = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,78}[A-Za-z0-9_])?$/;
const oddName = fc.oneof(
  fc.constantFrom("..", ".", "%2f", "a%2fb", "a%2Fb", "%2e%2e", "-a", "a-", "_", "a".repeat(81), "%00", "a%ZZ", "%", "%c3%28", "a%20b", "k%20"),
  fc.string({ minLength: 1, maxLength: 100 }).map(encodeURIComponent),
).filter((s) => {
  try {
    return !validName.test(decodeURIComponent(s)) || decodeURIComponent(s) === "_";
  } catch {
    return true;
  }
});
const notJson = fc.oneof(fc.constantFrom("{", "}", "[", "nul", "{\"a\":}", "{'a':1}", "\u0000", "{\"plaintext\":\"AA==\""), fc.string({ minLength: 1 }).filter((s) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return s.trim() !== "";
  }
}));
const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.double({ noNaN: true, noDefaultInfinity: true }));
const badB64 = fc.oneof(fc.constantFrom("!!!!", "AAA", "A===", "a b c d", "AA=A", "-_-_", "AAAAA"), fc.string({ minLength: 1 }).filter((s) => !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)));

const request: fc.Arbitrary<Req> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...bodyRoutes), notJson).map(([path, body]) => ({ method: "POST", path, body, expect: "4xx" as const })) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...nameRoutes), oddName).map(([[method, prefix], name]) => ({ method, path: prefix + name, body: method === "POST" ? "{}" : undefined, expect: "4xx" as const })) },
  {
    weight: 3,
    arbitrary: fc.tuple(
      fc.constantFrom<[string, string]>(["/v1/key/encrypt/k", "plaintext"], ["/v1/key/decrypt/k", "ciphertext"], ["/v1/key/hmac/k", "message"], ["/v1/key/import/k", "key"], ["/v1/key/generate/k", "context"], ["/v1/key/encrypt/k", "context"]),
      fc.oneof(badB64, notString),
    ).map(([[path, field], value]) => ({ method: "POST", path, body: JSON.stringify({ plaintext: "AA==", ciphertext: "AA==", message: "AA==", key: "AA==", [field]: value }), expect: "4xx" as const })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom<[string, string, unknown[]]>(
        ["/v1/key/create/k", "algorithm", ["x", "AES256", 1, true, [], {}]],
        ["/v1/key/create/k", "add_version", [1, "x", [], {}, "true"]],
        ["/v1/key/generate/k", "length", [0, -1, 1025, 1e9, 1.5, "32", true, []]],
        ["/v1/policy/create/p", "allow", ["x", 1, [1], {}, ["no-slash"], ["/a*b"]]],
        ["/v1/policy/create/p", "deny", ["x", 1, [1], {}, [null]]],
        ["/v1/policy/assign/p", "identity", [1, true, "x", [], "h1:short", "ABCDEF"]],
        ["/v1/identity/create/h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "admin", [1, "x", [], {}]],
        ["/v1/identity/create/h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "policy", [1, true, [], "bad/name"]],
      )
      .chain(([path, field, values]) => fc.constantFrom(...values).map((value) => ({ method: "POST", path, body: JSON.stringify({ [field]: value }), expect: "4xx" as const }))),
  },
  { weight: 2, arbitrary: fc.constantFrom(...requiredBody).map((path) => ({ method: "POST", path, body: "", expect: "4xx" as const })) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...allRoutes), fc.constantFrom("GET", "POST", "DELETE", "PATCH", "OPTIONS", "PUT")).filter(([[m], w]) => m !== w && !(m === "POST" && w === "PUT")).map(([[, path], method]) => ({ method, path, body: method === "GET" ? undefined : "{}", expect: 405 as const })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...allRoutes.filter(([m]) => m === "GET")), fc.string({ minLength: 1, maxLength: 30 })).map(([[, path], name]) => ({ method: "GET", path, headers: { "kms-enclave": name.replace(/[^\x21-\x7e]/g, "") || "-" }, expect: "4xx" as const })).filter((r) => !r.path.startsWith("/v1/health") && r.path !== "/version" && !validName.test(r.headers?.["kms-enclave"] ?? "")) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom("a", "..", "%2f", "v1", "key", "x"), { minLength: 1, maxLength: 6 }).map((parts) => ({ method: "GET", path: `/nope/${parts.join("/")}`, expect: "4xx" as const })) },
);

fuzz("should answer every malformed request with a 4xx JSON error", async ({ kms }) => {
  if (!kms) throw new Error("no server");
  const client = await kms.client();
  await client.createKey("k");
  await client.call("POST", "/v1/policy/create/p", { allow: [] });
  let count = 0;
  const check = async (r: Req): Promise<void> => {
    const res = await client.send(r.method, r.path, r.body, { ...(r.body === undefined ? {} : { "content-type": "application/json" }), ...r.headers });
    count++;
    const where = `${r.method} ${r.path} ${String(r.body).slice(0, 80)} -> ${res.status} ${res.body.toString().slice(0, 120)}`;
    if (r.expect === "4xx") assert.ok(res.status >= 400 && res.status < 500, where);
    else assert.is(res.status, r.expect, where);
    if (r.method === "HEAD") return;
    assert.is(res.headers["content-type"], "application/json", where);
    const body = JSON.parse(res.body.toString()) as { message?: unknown };
    assert.type(body.message, "string", where);
    if (res.status === 405) assert.ok(typeof res.headers.allow === "string" && res.headers.allow !== "", where);
  };
  await fc.assert(fc.asyncProperty(request, check), { numRuns: 4970, seed: fuzzSeed("kms malformed requests", 7373) });
  // Huge bodies: fewer, they are 1 MiB each.
  for (const path of bodyRoutes.slice(0, 6)) {
    for (const size of [1024 * 1024 + 1, 2 * 1024 * 1024]) {
      await check({ method: "POST", path, body: `{"plaintext":"${"A".repeat(size)}"}`, expect: 413 });
    }
  }
  for (let i = 0; i < 18; i++) await check({ method: "POST", path: "/v1/key/encrypt/k", body: `{"plaintext":"${"A".repeat(1024 * 1024)}"}`, expect: 413 });
  assert.ok(count >= 5000, `${count} requests`);
  assert.is(kms.proc.child.exitCode, null, "the server is still running");
  const g = await client.generate("k");
  assert.is((await client.decrypt("k", g.ciphertext)).plaintext, g.plaintext);
  client.close();
});

fuzz.run();
