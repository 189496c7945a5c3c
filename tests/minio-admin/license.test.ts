// mc license register|info in air-gapped mode (issue 24): the registration
// token is built from the cluster's admin info exactly as the reference
// driver builds it (upstream's ClusterRegistrationInfo, base64), printed in
// SUBNET's offline URL and written to a file on request. The only request goes
// to the alias's server: the recorder sees every request mc makes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer, referenceEncrypt } from "./go-driver.js";
import { differential, keys, startAdminFixture } from "./fixture.js";

const fx = await startAdminFixture();
const dir = await mkdtemp(join(tmpdir(), "mc-license-"));
const info = await cannedAnswer("server-info");
const answers = () => ({ headers: { "content-type": "application/json" }, body: info });

const T = suite("mc license (air-gapped)");
T.after(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

T("license register: the same GET /info as madmin; the same token and URL as upstream's air-gapped branch, in its text and JSON", async () => {
  const r = await differential(fx, { op: "license-register-airgap", args: { name: "minio" }, mc: ["license", "register", "minio"], responder: answers });
  assert.equal(r.requests.map((q) => `${q.method} ${q.path}`), ["GET /minio/admin/v3/info"]);
  const ref = JSON.parse(r.reference.stdout.toString()) as { url: string };
  assert.is(r.ours.stdout, `Open the following URL in the browser to register minio on SUBNET:\n${ref.url}\n`);
  const token = JSON.parse(Buffer.from(ref.url.split("token=")[1] ?? "", "base64").toString()) as Record<string, unknown>;
  assert.equal(token, { deployment_id: "6faeded5-5cf3-4133-8a37-07c5d500207c", cluster_name: "minio", used_capacity: 1536, info: { minio_version: "2023-01-01T00:00:00Z", no_of_server_pools: 1, no_of_servers: 1, no_of_drives: 1, no_of_buckets: 3, no_of_objects: 12, total_drive_space: 1073741824, used_drive_space: 1048576 } });
  const j = await fx.mc(["license", "register", "minio", "--airgap", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", type: "offline", url: ref.url }]);
});

T("license register --name N --token-file F: the name in the token, the token written to the file (mode 0600)", async () => {
  const file = join(dir, "reg token é.txt");
  const r = await differential(fx, { op: "license-register-airgap", args: { name: "prod-east" }, mc: ["license", "register", "minio", "--name", "prod-east", "--token-file", file], responder: answers });
  const ref = JSON.parse(r.reference.stdout.toString()) as { url: string };
  assert.is(`${(await readFile(file, "utf8")).trim()}`, ref.url.split("token=")[1]);
});

T("license register: nothing but the alias's server is asked; wrong arguments are one line, exit 1, nothing sent", async () => {
  fx.recorder.clear();
  for (const args of [["license", "register"], ["license", "register", "minio", "other"], ["license", "register", "minio", "--api-key", "08efc836-4289-dbd4-ad82-b5e8b6d25577"], ["license", "register", "nosuch"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> [^\n]+\n/, args.join(" "));
  }
  assert.is(fx.recorder.requests.length, 0);
  fx.recorder.respond(() => ({ status: 200, body: "[1,2]" }));
  const odd = await fx.mc(["license", "register", "minio"]);
  assert.is(odd.code, 1);
  assert.match(odd.stderr, /^mc: <ERROR> Unable to fetch cluster info\. [^\n]+\n$/);
});

T("license info: without a saved license (the server's subnet setting empty, none in config.json), upstream's AGPL text and JSON", async () => {
  const empty = await referenceEncrypt(keys.secret, Buffer.from("subnet license= api_key= proxy=\n"));
  fx.recorder.respond((req) => (req.path.endsWith("/get-config-kv") ? { body: empty } : answers()));
  const text = await fx.mc(["license", "info", "minio"]);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /^License: GNU AGPL v3 <https:\/\/www\.gnu\.org\/licenses\/agpl-3\.0\.txt>\nIf you are distributing/);
  const j = await fx.mc(["license", "info", "minio", "--json"]);
  assert.equal((jsonLines(j.stdout)[0] as { status: string; info: { plan: string } }).info.plan, "AGPLv3");
});

T.run();
