// mc license update (offline) and license info with a license (issue 24): a
// SUBNET license file (an ES384 JWT) is verified locally, checked against the
// cluster's deployment (admin info) and stored in the server's `subnet
// license` setting as madmin's SetConfigKV sends it, compared request by
// request with madmin-go v2.0.7; SUBNET itself is never asked. The signing
// key is the test's own, given to mc by MC_SUBNET_LICENSE_PUBKEY; with SUBNET's
// real key (the default) the same license is refused.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, runMc } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Responder } from "./recorder.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-license-update-"));
const info = await cannedAnswer("server-info");
const deployment = "6faeded5-5cf3-4133-8a37-07c5d500207c";
const subnetKeys = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
const otherKeys = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
const env = { MC_SUBNET_LICENSE_PUBKEY: subnetKeys.publicKey.export({ type: "spki", format: "pem" }).toString() };
const b64url = (b: Buffer | string): string => Buffer.from(b).toString("base64url");
function jwt(claims: Record<string, unknown>, key: KeyObject = subnetKeys.privateKey, alg = "ES384"): string {
  const data = `${b64url(JSON.stringify({ alg, typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
  return `${data}.${b64url(sign("sha384", Buffer.from(data), { key, dsaEncoding: "ieee-p1363" }))}`;
}
const now = Math.floor(Date.now() / 1000);
const claims = { sub: "ops@example.com", aid: 1234, did: deployment, org: "Example <Org> & Co", cap: 50, plan: "ENTERPRISE", iat: 1704164645, exp: now + 86400 * 365, lid: "lic-77", apiKey: "08efc836-4289-dbd4-ad82-b5e8b6d25577" };
const good = jwt(claims);
const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};
const subnetConfig = async (text: string): Promise<Buffer> => referenceEncrypt(keys.secret, Buffer.from(text));
const emptySubnet = await subnetConfig("# MINIO_SUBNET_PROXY=\nsubnet license= api_key= proxy=\n");
const answers =
  (subnet: Buffer): Responder =>
  (req) =>
    req.path.endsWith("/info") ? { body: info } : req.path.endsWith("/get-config-kv") ? { body: subnet } : {};

const T = suite("mc license update (offline) and license info");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("update: admin info, get-config-kv?key=subnet, then the encrypted `subnet license=…` as madmin sends them; upstream's text and JSON", async () => {
  const path = await file("minio.license", `${good}\n`);
  const r = await differential(fx, { op: "license-update", args: { license: good }, mc: ["license", "update", "minio", path], env, responder: answers(emptySubnet), encrypted: (q) => q.path.endsWith("/set-config-kv") });
  assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["GET", "/minio/admin/v3/info", []], ["GET", "/minio/admin/v3/get-config-kv", [["key", "subnet"]]], ["PUT", "/minio/admin/v3/set-config-kv", []]]);
  assert.is(r.requests[2]?.body, `subnet license=${good}`);
  assert.is(r.ours.stdout, "License updated successfully for minio\n");
  const j = await fx.mc(["license", "update", "minio", path, "--json", "--airgap"], { env });
  assert.equal(jsonLines(j.stdout), [{ status: "success" }]);
});

T("info: the server's saved license verified and shown (upstream's fields), JSON with license_id, org, plan, dates, deployment, api key", async () => {
  fx.recorder.respond(answers(await subnetConfig(`subnet license=${good} api_key= proxy=\n`)));
  const t = await fx.mc(["license", "info", "minio"], { env });
  assert.is(t.code, 0, t.stderr);
  const row = (k: string, v: string): string => `│ ${k.padEnd(20)}  ${v.padEnd(45)} │`;
  const lines = t.stdout.split("\n");
  assert.equal(lines.slice(0, 3), [`┌${"─".repeat(69)}┐`, row("License", ""), `│${"─".repeat(69)}│`]);
  assert.equal(lines.slice(3, 6), [row("Organization", "Example <Org> & Co"), row("Plan", "ENTERPRISE"), row("Issued", "Tue, 02 Jan 2024 03:04:05 GMT")]);
  assert.equal(lines.slice(7, 11), [row("License ID", "lic-77"), row("Deployment ID", deployment), row("API Key", claims.apiKey), `└${"─".repeat(69)}┘`]);
  const j = await fx.mc(["license", "info", "minio", "--json"], { env });
  assert.equal(jsonLines(j.stdout), [{ status: "success", info: { license_id: "lic-77", org: "Example <Org> & Co", plan: "ENTERPRISE", issued_at: "2024-01-02T03:04:05Z", expires_at: new Date(claims.exp * 1000).toISOString().replace(".000Z", "Z"), deployment_id: deployment, api_key: claims.apiKey } }]);
  // With SUBNET's own key the test's license does not verify: an error, exit 1.
  const real = await fx.mc(["license", "info", "minio", "--json"]);
  assert.is(real.code, 1);
  assert.equal((jsonLines(real.stdout)[0] as { status: string; error: string }).status, "error");
});

T("update refuses, in one line and before any request, a license not signed by SUBNET's key, tampered, expired, of another algorithm or unreadable", async () => {
  fx.recorder.respond(answers(emptySubnet));
  fx.recorder.clear();
  const [head, , sig] = good.split(".");
  const tampered = `${head ?? ""}.${b64url(JSON.stringify({ ...claims, cap: 5000 }))}.${sig ?? ""}`;
  const cases: [string[], Record<string, string>, RegExp][] = [
    [["license", "update", "minio", await file("other.license", jwt(claims, otherKeys.privateKey))], env, /^mc: <ERROR> Error parsing license from .*other\.license\. failed to verify license: could not verify/],
    [["license", "update", "minio", await file("good.license", good)], {}, /^mc: <ERROR> Error parsing license from .*good\.license\. failed to verify license/],
    [["license", "update", "minio", await file("tampered.license", tampered)], env, /could not verify message/],
    [["license", "update", "minio", await file("expired.license", jwt({ ...claims, exp: now - 60 }))], env, /^mc: <ERROR> License has expired on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\.\n$/],
    [["license", "update", "minio", await file("hs.license", jwt(claims, subnetKeys.privateKey, "HS256"))], env, /algorithm HS256 is not ES384/],
    [["license", "update", "minio", await file("junk.license", "not a license")], env, /not a signed token/],
    [["license", "update", "minio", join(dir, "missing.license")], env, /^mc: <ERROR> Unable to read license file /],
    [["license", "update", "minio"], env, /^mc: <ERROR> Invalid command usage/],
  ];
  for (const [[args, , says], r] of await Promise.all(cases.map(async (c) => [c, await fx.mc(c[0], { env: c[1] })] as const))) {
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, says, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("update: a license for another deployment is refused after admin info, nothing set; a server without `subnet license` keeps it in config.json, which info then reads", async () => {
  fx.recorder.clear();
  const other = await file("other-deployment.license", jwt({ ...claims, did: "00000000-0000-0000-0000-000000000000" }));
  const r = await fx.mc(["license", "update", "minio", other], { env });
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> License is invalid for the deployment minio\. /);
  assert.equal(fx.recorder.requests.map((q) => q.path), ["/minio/admin/v3/info"]);
  // An older server: its subnet setting has no license key.
  fx.recorder.respond(answers(await subnetConfig("subnet api_key= proxy=\n")));
  const env2 = await fx.mc(["license", "update", "minio", await file("env.license", good)], { env });
  assert.is(env2.code, 1, "an alias from MC_HOST_ has no config.json entry to keep it in");
  const cfg = join(dir, "cfg");
  await runMc(["-C", cfg, "alias", "list"]);
  const configFile = join(cfg, "config.json");
  const config = JSON.parse(await readFile(configFile, "utf8")) as { aliases: Record<string, Record<string, string>> };
  config.aliases["rec"] = { url: fx.recorder.url, accessKey: keys.access, secretKey: keys.secret, api: "s3v4", path: "auto" };
  await writeFile(configFile, JSON.stringify(config));
  fx.recorder.clear();
  const saved = await runMc(["-C", cfg, "license", "update", "rec", await file("rec.license", good)], { env });
  assert.is(saved.code, 0, saved.stderr);
  assert.not.ok(fx.recorder.requests.some((q) => q.path.endsWith("/set-config-kv")));
  assert.is((JSON.parse(await readFile(configFile, "utf8")) as { aliases: Record<string, { license?: string }> }).aliases["rec"]?.license, good);
  const shown = await runMc(["-C", cfg, "license", "info", "rec", "--json"], { env });
  assert.is((jsonLines(shown.stdout)[0] as { info: { org: string } }).info.org, "Example <Org> & Co");
});

T.run();
