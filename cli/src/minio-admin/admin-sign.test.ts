import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { encodeQuery, signV4 } from "./admin-sign.js";

const root = fileURLToPath(new URL("../../../tests/vectors/sigv4/aws-sig-v4-test-suite/", import.meta.url));

/** Every case folder (post-sts-token has two nested ones). */
function cases(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const dir = join(root, name);
    const files = readdirSync(dir);
    if (files.some((f) => f.endsWith(".req"))) out.push(join(dir, name));
    else for (const sub of files.filter((f) => !f.includes("."))) out.push(join(dir, sub, sub));
  }
  return out;
}

/** A raw .req: request line, headers (continuation lines are further values), blank line, body. */
function parseReq(text: string): { method: string; path: string; query: string; headers: Record<string, string[]>; body: string } {
  const [head = "", body = ""] = text.split(/\n\n/);
  const lines = head.split("\n");
  const [method = "", target = ""] = (lines[0] ?? "").split(" ");
  const headers: Record<string, string[]> = {};
  let last = "";
  for (const line of lines.slice(1)) {
    if (/^\s/.test(line)) {
      headers[last]?.push(line.trim());
      continue;
    }
    const at = line.indexOf(":");
    last = line.slice(0, at).toLowerCase();
    (headers[last] ??= []).push(line.slice(at + 1));
  }
  const q = target.indexOf("?");
  return { method, path: q < 0 ? target : target.slice(0, q), query: q < 0 ? "" : target.slice(q + 1), headers, body };
}

const Sign = suite("admin SigV4 signer");

// get-utf8 and get-vanilla-utf8-query send raw UTF-8 that the canonical form
// encodes, and get-vanilla-empty-query-key a key without `=`: our requests
// are always sent encoded (encodeQuery, escaped paths), so those three cases
// would sign another target than ours and are left out.
const rawTargets = new Set(["get-utf8", "get-vanilla-utf8-query", "get-vanilla-empty-query-key"]);

Sign("should reproduce the AWS SigV4 test suite's canonical requests and Authorization headers", () => {
  let checked = 0;
  for (const base of cases()) {
    const name = base.split("/").pop() ?? "";
    if (rawTargets.has(name)) continue;
    const req = parseReq(readFileSync(`${base}.req`, "utf8"));
    const date = req.headers["x-amz-date"]?.[0] ?? "";
    const signed = signV4({
      method: req.method,
      path: req.path,
      query: req.query,
      headers: req.headers,
      body: new TextEncoder().encode(req.body),
      accessKey: "AKIDEXAMPLE",
      secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      region: "us-east-1",
      service: "service",
      date: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`),
    });
    assert.is(signed.canonicalRequest, readFileSync(`${base}.creq`, "utf8"), `${name}: canonical request`);
    assert.is(signed.authorization, readFileSync(`${base}.authz`, "utf8"), `${name}: Authorization`);
    checked++;
  }
  assert.ok(checked >= 18, `only ${checked} cases checked`);
});

Sign("should encode the query as madmin does: keys sorted, repeated values kept in order, RFC 3986 escapes", () => {
  assert.is(encodeQuery({ name: "a b+c/é", bucket: "x" }), "bucket=x&name=a%20b%2Bc%2F%C3%A9");
  assert.is(encodeQuery({ user: ["u2", "u1"], group: [] }), "user=u2&user=u1");
  assert.is(encodeQuery({ k: "!'()*~._-" }), "k=%21%27%28%29%2A~._-");
  assert.is(encodeQuery(undefined), "");
});

Sign.run();
