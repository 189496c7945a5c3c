// mc cors set|get|remove against Ceph RGW (issue 22), aws s3api as the witness
// of what the bucket holds; files in S3's XML and in JSON, and bad files.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";

const exec = promisify(execFile);
const fx = await startMcFixture();
const { mc, work, rgw } = fx;

const aws = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await exec("/usr/bin/aws", ["--endpoint-url", rgw.endpoint, ...args], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKey, AWS_SECRET_ACCESS_KEY: rgw.secretKey, AWS_DEFAULT_REGION: rgw.region },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
};

/**
 * The bucket's rules as aws s3api sees them, each list sorted (RGW keeps
 * origins and methods as sets). aws-cli crashes on RGW's empty <Message>, so
 * a refusal is read from its --debug log.
 */
async function witness(bucket: string): Promise<unknown> {
  const r = await aws("--debug", "s3api", "get-bucket-cors", "--bucket", bucket);
  if (r.code !== 0) return /<Code>NoSuchCORSConfiguration<\/Code>/.test(r.stderr) ? "none" : r.stderr.slice(-500);
  const rules = (JSON.parse(r.stdout) as { CORSRules: Record<string, unknown>[] }).CORSRules;
  return rules.map((rule) => Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, Array.isArray(v) ? [...(v as string[])].sort() : v])));
}

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <CORSRule>
    <ID>web app</ID>
    <AllowedOrigin>https://app.example.com</AllowedOrigin>
    <AllowedOrigin>https://*.example.org</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>HEAD</AllowedMethod>
  </CORSRule>
</CORSConfiguration>`;

const expectedRules = [
  { ID: "web app", AllowedHeaders: ["*"], AllowedMethods: ["GET", "PUT"], AllowedOrigins: ["https://*.example.org", "https://app.example.com"], ExposeHeaders: ["ETag"], MaxAgeSeconds: 3000 },
  { AllowedMethods: ["HEAD"], AllowedOrigins: ["*"] },
];

const cors = suite("cors set, get, remove");

cors.before(async () => {
  assert.is((await mc(["mb", "rgw/web"])).code, 0);
  assert.is((await mc(["mb", "rgw/other"])).code, 0);
});

cors("should set rules from an XML file and read them back :: aws s3api", async () => {
  await writeFile(join(work, "cors.xml"), xml);
  const set = await mc(["cors", "set", "rgw/web", join(work, "cors.xml")]);
  assert.is(set.code, 0, set.stderr);
  assert.is(set.stdout, "Set bucket CORS config successfully.\n");
  assert.equal(await witness("web"), expectedRules);
  const get = await mc(["cors", "get", "rgw/web"]);
  assert.is(get.code, 0, get.stderr);
  assert.is(
    get.stdout,
    '<?xml version="1.0" encoding="UTF-8"?>\n<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      "<CORSRule><AllowedHeader>*</AllowedHeader><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedOrigin>https://*.example.org</AllowedOrigin><AllowedOrigin>https://app.example.com</AllowedOrigin><ExposeHeader>ETag</ExposeHeader><ID>web app</ID><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>" +
      "<CORSRule><AllowedMethod>HEAD</AllowedMethod><AllowedOrigin>*</AllowedOrigin></CORSRule></CORSConfiguration>\n",
  );
});

cors("should copy rules to another bucket through get --json and set from stdin", async () => {
  const json = await mc(["cors", "get", "--json", "rgw/web"]);
  assert.is(json.code, 0, json.stderr);
  const [line] = jsonLines(json.stdout);
  assert.is(line?.["status"], "success");
  assert.equal((line?.["cors"] as { CORSRules: unknown[] }).CORSRules[1], { AllowedHeader: [], AllowedMethod: ["HEAD"], AllowedOrigin: ["*"], ExposeHeader: [], ID: "", MaxAgeSeconds: 0 });
  const set = await mc(["cors", "set", "--json", "rgw/other", "-"], { input: json.stdout });
  assert.is(set.code, 0, set.stdout);
  assert.is(set.stdout, '{"status":"success"}\n');
  assert.equal(await witness("other"), expectedRules);
});

cors("should take aws s3api's JSON form, and read what aws wrote", async () => {
  const awsJson = JSON.stringify({ CORSRules: [{ AllowedOrigins: ["https://a.test"], AllowedMethods: ["POST", "DELETE"], AllowedHeaders: ["Content-Type"], MaxAgeSeconds: 60 }] });
  await writeFile(join(work, "aws.json"), awsJson);
  const set = await mc(["cors", "set", "rgw/other", join(work, "aws.json")]);
  assert.is(set.code, 0, set.stderr);
  assert.equal(await witness("other"), [{ AllowedHeaders: ["Content-Type"], AllowedMethods: ["DELETE", "POST"], AllowedOrigins: ["https://a.test"], MaxAgeSeconds: 60 }]);
  const put = await aws("s3api", "put-bucket-cors", "--bucket", "other", "--cors-configuration", JSON.stringify({ CORSRules: [{ AllowedOrigins: ["https://b.test"], AllowedMethods: ["GET"] }] }));
  assert.is(put.code, 0, put.stderr);
  const [line] = jsonLines((await mc(["cors", "get", "--json", "rgw/other"])).stdout);
  assert.equal(line?.["cors"], { CORSRules: [{ AllowedHeader: [], AllowedMethod: ["GET"], AllowedOrigin: ["https://b.test"], ExposeHeader: [], ID: "", MaxAgeSeconds: 0 }] });
});

cors("should remove the rules :: aws s3api finds none", async () => {
  const rm = await mc(["cors", "remove", "rgw/other"]);
  assert.is(rm.code, 0, rm.stderr);
  assert.is(rm.stdout, "Removed bucket CORS config successfully.\n");
  assert.is(await witness("other"), "none");
  const get = await mc(["cors", "get", "rgw/other"]);
  assert.is(get.code, 0, get.stderr);
  assert.is(get.stdout, "No bucket CORS configuration found.\n");
  assert.is((await mc(["cors", "get", "--json", "rgw/other"])).stdout, '{"status":"not found"}\n');
});

cors("should refuse bad files in one line, leaving the bucket's rules as they were", async () => {
  const bad: Array<[string, string, RegExp]> = [
    ["field.xml", xml.replace("<ExposeHeader>ETag</ExposeHeader>", "<ExposeHeaders>ETag</ExposeHeaders>"), /unknown field `ExposeHeaders` in rule 1\.$/],
    ["field.json", JSON.stringify({ CORSRules: [{ AllowedOrigin: ["*"], AllowedMethod: ["GET"], AllowedOrign: ["x"] }] }), /unknown field `AllowedOrign` in rule 1\.$/],
    ["top.json", JSON.stringify({ Rules: [] }), /unknown field `Rules`; expected CORSRules\.$/],
    ["method.xml", xml.replace("<AllowedMethod>PUT</AllowedMethod>", "<AllowedMethod>PATCH</AllowedMethod>"), /unknown AllowedMethod `PATCH` in rule 1; use GET, PUT, HEAD, POST or DELETE\.$/],
    ["age.xml", xml.replace("3000", "soon"), /MaxAgeSeconds of rule 1 must be a whole number of seconds, not `soon`\.$/],
    ["root.xml", "<LifecycleConfiguration/>", /the root element is `LifecycleConfiguration`, not CORSConfiguration\.$/],
    ["broken.json", "{ not json", /not valid JSON/],
  ];
  for (const [name, body, message] of bad) {
    await writeFile(join(work, name), body);
    const r = await mc(["cors", "set", "rgw/web", join(work, name)]);
    assert.is(r.code, 1, name);
    assert.is(r.stderr.trimEnd().split("\n").length, 1, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /^mc: <ERROR> Invalid CORS configuration: /, name);
    assert.match(r.stderr.trimEnd(), message, name);
  }
  const missing = await mc(["cors", "set", "rgw/web", join(work, "no-such.xml")]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^mc: <ERROR> Unable to read bucket CORS configuration file `.*no-such\.xml`\./);
  const usage = await mc(["cors", "set", "rgw/web"]);
  assert.is(usage.code, 1);
  assert.match(usage.stderr, /^mc: <ERROR> Invalid command usage, cors set needs ALIAS\/BUCKET and CORSFILE\./);
  assert.equal(await witness("web"), expectedRules);
  const nobucket = await mc(["cors", "get", "rgw/no-such-bucket"]);
  assert.is(nobucket.code, 1);
  assert.match(nobucket.stderr, /NoSuchBucket|does not exist/);
});

cors.after(async () => {
  await fx.stop();
});

cors.run();
