// mc idp ldap|openid … against a recording endpoint, each operation compared
// request by request with MinIO's admin library doing the same (issue 24):
// method, path, query, signed headers and the decrypted body; the canned
// answers (the library's types, encrypted by the library) printed in real
// mc's text and JSON shapes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const sealed = async (name: string): Promise<Buffer> => referenceEncrypt(keys.secret, await cannedAnswer(name));
const [idpList, idpInfo, entities, association] = await Promise.all([sealed("idp-list"), sealed("idp-info"), sealed("ldap-entities"), sealed("policy-association")]);

let applied = false;
const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (req.method === "GET" && /^\/idp-config\/(ldap|openid)$/.test(p)) return { body: idpList };
  if (req.method === "GET" && p.startsWith("/idp-config/")) return { body: idpInfo };
  if (p === "/idp/ldap/policy-entities") return { body: entities };
  if (p.startsWith("/idp/ldap/policy/")) return { body: association };
  return applied ? { headers: { "x-minio-config-applied": "true" } } : {};
};

const T = suite("mc idp (differential against madmin-go)");
T.after(() => fx.stop());

for (const type of ["ldap", "openid"] as const) {
  const cfg = type === "ldap" ? ["server_addr=ldap.example:636", "lookup_bind_dn=cn=admin,dc=min,dc=io", "user_dn_search_filter=(uid=%s)"] : ["client_id=minio", "config_url=http://127.0.0.1:8080/.well-known/openid-configuration", "scopes=openid,groups"];
  const named = type === "openid" ? ["keycloak"] : [];
  const name = type === "openid" ? "keycloak" : "_";

  for (const [verb, op, update] of [["add", "idp-add", false], ["update", "idp-update", true]] as const) {
    T(`idp ${type} ${verb}: the same ${update ? "POST" : "PUT"} idp-config/${type}/${name} with the configuration encrypted; restart hint unless applied`, async () => {
      applied = false;
      const r = await differential(fx, { op, args: { type, name, config: cfg.join(" ") }, mc: ["idp", type, verb, "minio/", ...named, ...cfg], encrypted: true, responder: answers });
      assert.equal(r.requests.map((q) => [q.method, q.path, q.contentType, q.body]), [[update ? "POST" : "PUT", `/minio/admin/v3/idp-config/${type}/${name}`, "application/octet-stream", cfg.join(" ")]]);
      assert.equal(r.requests[0]?.signedHeaders, ["content-type", "host", "x-amz-content-sha256", "x-amz-date"]);
      assert.equal(JSON.parse(r.reference.stdout.toString()), { restart: true });
      assert.is(r.ours.stdout, "Successfully applied new settings.\nPlease restart your server 'minio/'.\n");
      if (type === "ldap" && !update) {
        applied = true;
        const j = await fx.mc(["idp", type, verb, "minio/", ...named, ...cfg, "--json"]);
        assert.equal(jsonLines(j.stdout), [{ status: "success" }]);
      }
    });
  }

  T(`idp ${type} remove: the same DELETE idp-config/${type}/${name}`, async () => {
    applied = true;
    const r = await differential(fx, { op: "idp-remove", args: { type, name }, mc: ["idp", type, "remove", "minio/", ...named], responder: answers });
    assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), [`DELETE /minio/admin/v3/idp-config/${type}/${name}`]);
    assert.is(r.ours.stdout, "Successfully applied new settings.\n");
  });

  for (const [verb, body] of [["enable", "enable="], ["disable", "enable=off"]] as const) {
    T(`idp ${type} ${verb}: an update of idp-config/${type}/${name} with ${body}`, async () => {
      applied = true;
      const r = await differential(fx, { op: "idp-update", args: { type, name, config: body }, mc: ["idp", type, verb, "minio/", ...named], encrypted: true, responder: answers });
      assert.equal(r.requests.map((q) => [q.method, q.body]), [["POST", body]]);
    });
  }

  T(`idp ${type} list: the same GET idp-config/${type}; the decrypted list in real mc's box and as JSON`, async () => {
    const r = await differential(fx, { op: "idp-list", args: { type }, mc: ["idp", type, "list", "minio/"], responder: answers });
    assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), [`GET /minio/admin/v3/idp-config/${type}`]);
    const lines = r.ours.stdout.split("\n");
    assert.match(lines[0] ?? "", /^╭─+╮$/);
    assert.match(lines[1] ?? "", /│ On\? .*Name.*RoleARN.*│/);
    assert.match(lines[2] ?? "", /│ 🟢 +\(default\) +arn:minio:iam:::role\/dummy +│/);
    assert.match(lines[3] ?? "", /│ 🔴 +keycloak +│/);
    assert.match(lines[4] ?? "", /^╰─+╯$/);
    if (type === "ldap") return;
    const j = await fx.mc(["idp", type, "ls", "minio/", "--json"]);
    assert.equal(jsonLines(j.stdout), [[{ type: "openid", name: "_", enabled: true, roleARN: "arn:minio:iam:::role/dummy" }, { type: "openid", name: "keycloak", enabled: false }]]);
  });

  T(`idp ${type} info: the same GET idp-config/${type}/${name}; keys right-aligned, environment values marked`, async () => {
    const r = await differential(fx, { op: "idp-info", args: { type, name }, mc: ["idp", type, "info", "minio/", ...named], responder: answers });
    assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), [`GET /minio/admin/v3/idp-config/${type}/${name}`]);
    const lines = r.ours.stdout.split("\n");
    assert.match(lines[1] ?? "", /^│    enable: on +│$/);
    assert.match(lines[2] ?? "", /^│ client_id: minio +│$/);
    assert.match(lines[3] ?? "", /^│config_url: http:\/\/127\.0\.0\.1:8080\/\.well-known\/openid-configuration  \(environment\)│$/);
    if (type === "ldap") return;
    const j = await fx.mc(["idp", type, "info", "minio/", ...named, "--json"]);
    assert.equal((jsonLines(j.stdout)[0] as { info: unknown[] }).info.length, 3);
  });
}

T("idp ldap policy attach/detach: the same encrypted POST; the decrypted answer in real mc's shapes", async () => {
  for (const [verb, op] of [["attach", "ldap-policy-attach"], ["detach", "ldap-policy-detach"]] as const) {
    const r = await differential(fx, { op, args: { policies: ["readwrite", "diagnostics"], user: "uid=alice,dc=example,dc=org" }, mc: ["idp", "ldap", "policy", verb, "minio/", "readwrite", "diagnostics", "--user", "uid=alice,dc=example,dc=org"], encrypted: true, responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.body]), [["POST", `/minio/admin/v3/idp/ldap/policy/${verb}`, { policies: ["readwrite", "diagnostics"], user: "uid=alice,dc=example,dc=org" }]]);
  }
  const a = await fx.mc(["idp", "ldap", "policy", "attach", "minio/", "readwrite", "-g", "cn=ops,dc=example,dc=org"]);
  assert.is(a.stdout, "Attached Policies: [readwrite]\nTo Group: cn=ops,dc=example,dc=org\n\n");
  const j = await fx.mc(["idp", "ldap", "policy", "attach", "minio/", "readwrite", "--user", "alice", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", policiesAttached: ["readwrite"], user: "alice" }]);
  const d = await fx.mc(["idp", "ldap", "policy", "detach", "minio/", "readwrite", "--user", "alice", "--json"]);
  assert.equal(jsonLines(d.stdout), [{ status: "success", user: "alice" }]);
});

T("idp ldap policy entities: repeated --user/--group/--policy in the query as madmin sends them; real mc's text", async () => {
  const r = await differential(fx, {
    op: "ldap-policy-entities",
    args: { users: ["uid=alice,dc=example,dc=org", "bob"], groups: ["cn=ops,dc=example,dc=org"], policies: ["readwrite"] },
    mc: ["idp", "ldap", "policy", "entities", "minio/", "--user", "uid=alice,dc=example,dc=org", "-u", "bob", "--group", "cn=ops,dc=example,dc=org", "--policy", "readwrite"],
    responder: answers,
  });
  assert.equal(r.requests[0]?.query, [["group", "cn=ops,dc=example,dc=org"], ["policy", "readwrite"], ["user", "bob"], ["user", "uid=alice,dc=example,dc=org"]]);
  assert.is(
    r.ours.stdout,
    [
      "Query time: 2024-01-02T03:04:05Z",
      "User -> Policy Mappings:",
      "  User: uid=alice,dc=example,dc=org",
      "    Policies:",
      "      readwrite",
      "Group -> Policy Mappings:",
      "  Group: cn=ops,dc=example,dc=org",
      "    Policies:",
      "      diagnostics",
      "Policy -> Entity Mappings:",
      "  Policy: readwrite",
      "    User Mappings:",
      "      uid=alice,dc=example,dc=org",
      "",
      "",
    ].join("\n"),
  );
  const j = await fx.mc(["idp", "ldap", "policy", "entities", "minio/", "--json"]);
  const [e] = jsonLines(j.stdout) as { status: string; result: { timestamp: string; userMappings: unknown[] } }[];
  assert.is(e?.status, "success");
  assert.is(e?.result.timestamp, "2024-01-02T03:04:05Z");
  assert.is(e?.result.userMappings.length, 1);
});

T("hostile input: wrong arguments and flags are one usage line, exit 1, nothing sent", async () => {
  fx.recorder.clear();
  const bad: readonly (readonly string[])[] = [
    ["idp", "ldap", "add", "minio/"],
    ["idp", "ldap", "add", "minio/", "named", "a=b"],
    ["idp", "openid", "add", "minio/", "../x", "a=b"],
    ["idp", "openid", "info", "minio/", "a#b"],
    ["idp", "ldap", "info", "minio/", "extra"],
    ["idp", "ldap", "policy", "attach", "minio/", "readwrite"],
    ["idp", "ldap", "policy", "attach", "minio/", "readwrite", "--user", "a", "--group", "b"],
    ["idp", "ldap", "policy", "detach", "minio/"],
    ["idp", "openid", "list"],
    ["idp", "ldap", "list", "minio/", "--no-such-flag"],
  ];
  for (const args of bad) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^(mc: <ERROR> |Unknown Syntax Error)/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
});

T("a flipped byte in an encrypted answer is refused: one line, exit 1", async () => {
  const damaged = Buffer.from(idpList);
  damaged[damaged.length - 5] = (damaged[damaged.length - 5] ?? 0) ^ 1;
  fx.recorder.respond(() => ({ body: damaged }));
  const r = await fx.mc(["idp", "openid", "list", "minio/"]);
  assert.is(r.code, 1);
  assert.is(r.stdout, "");
  assert.match(r.stderr, /^mc: <ERROR> Unable to list IDP config for 'openid'\. .+\n$/);
});

T.run();
