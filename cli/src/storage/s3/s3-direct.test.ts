import { createServer, Agent, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Client, ClientOptions } from "minio";
import { signV4 as sdkSignV4 } from "minio/dist/esm/signing.mjs";
import type { ResolvedAlias } from "../../config/aliases.js";
import { createS3Client } from "./s3-client.js";
import { directCapable, directRequestOptions, sdkUserAgent, type DirectTarget } from "./s3-direct.js";
import { createSdkClient } from "./s3-sdk-client.js";
import { s3Call } from "./s3-request.js";

const direct = suite("a bucket's GET or HEAD without the SDK");

/** The SDK's request options for a call (its protected getRequestOptions). */
const sdkRequestOptions = (client: Client, call: object): { headers: Record<string, string>; path: string; host: string; port: number; protocol: string; method: string } =>
  (client as unknown as { getRequestOptions(o: object): { headers: Record<string, string>; path: string; host: string; port: number; protocol: string; method: string } }).getRequestOptions(call);

/** The SDK's request for a call, signed as its makeRequestStreamAsync signs it at `date`. */
function sdkSigned(sdk: Client, call: object, target: DirectTarget, region: string, date: Date): ReturnType<typeof sdkRequestOptions> {
  const theirs = sdkRequestOptions(sdk, { ...call, region });
  if (target.accessKey === "") return theirs;
  const iso = date.toISOString();
  theirs.headers["x-amz-date"] = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  theirs.headers["x-amz-content-sha256"] = target.enableSHA256 ? "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" : "UNSIGNED-PAYLOAD";
  if (target.sessionToken) theirs.headers["x-amz-security-token"] = target.sessionToken;
  theirs.headers["authorization"] = sdkSignV4(theirs, target.accessKey, target.secretKey, region, date, theirs.headers["x-amz-content-sha256"]);
  return theirs;
}

function targets(): Array<{ target: DirectTarget; options: ClientOptions }> {
  const agent = new Agent();
  const cases: Array<Omit<DirectTarget, "agent" | "pathStyle" | "region">> = [
    { useSSL: false, host: "127.0.0.1", port: 9000, accessKey: "AKIA+/x", secretKey: "s e/c+r%t", headers: {}, enableSHA256: true },
    { useSSL: false, host: "rgw.example", port: 80, accessKey: "ak", secretKey: "sk", sessionToken: "tok en", headers: { "x-custom": "a  b", "x-amz-meta-z": "1" }, enableSHA256: true },
    { useSSL: true, host: "s3.example.org", port: 443, accessKey: "ak", secretKey: "sk", headers: {}, enableSHA256: false },
    { useSSL: true, host: "minio.local", port: 9443, accessKey: "", secretKey: "", headers: {}, enableSHA256: false },
  ];
  return cases.map((c) => ({
    target: { ...c, pathStyle: true, region: "us-east-1", agent },
    options: { endPoint: c.host, port: c.port, useSSL: c.useSSL, accessKey: c.accessKey, secretKey: c.secretKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}), region: "us-east-1", pathStyle: true, transportAgent: agent },
  }));
}

direct("should send what the SDK sends, header for header, signature included", () => {
  const date = new Date("2026-11-27T19:50:07.123Z");
  const calls = [
    { method: "GET", bucketName: "bucket", query: "list-type=2&delimiter=%2F&encoding-type=url&max-keys=1000&prefix=a%20b%2B%25" },
    { method: "GET", bucketName: "my.bucket-1", query: "versions&key-marker=k&prefix=" },
    { method: "HEAD", bucketName: "abc", headers: { "X-Amz-Expected-Bucket-Owner": "123", Range: undefined } },
    { method: "GET", bucketName: "abc", query: "policy" },
  ];
  let compared = 0;
  for (const { target, options } of targets()) {
    const sdk = createSdkClient(options, target.headers, target.enableSHA256);
    for (const call of calls) {
      const ours = directRequestOptions(target, call, "eu-west-3", date);
      const theirs = sdkSigned(sdk, call, target, "eu-west-3", date);
      assert.equal(Object.entries(ours.headers), Object.entries(theirs.headers), `${call.method} ${ours.path} on ${target.host}`);
      assert.equal([ours.method, ours.path, ours.host, ours.port, ours.protocol], [theirs.method, theirs.path, theirs.host, theirs.port, theirs.protocol]);
      compared++;
    }
  }
  assert.is(compared, 16);
});

direct("should sign an object's ranged GET as the SDK does, its key escaped the SDK's way", () => {
  const date = new Date("2026-12-07T19:50:07.123Z");
  // Names from the torture corpus: spaces, `+`, `%`, quotes, reserved and non-ASCII characters, slashes kept.
  const keys = ["dir/a b+c%d é(1)!*'~.bin", "x//y/./../z", "日本語/ファイル", "a?b#c&d=e;f", "%2F%20+"];
  let compared = 0;
  for (const { target, options } of targets()) {
    const sdk = createSdkClient(options, target.headers, target.enableSHA256);
    for (const objectName of keys) {
      const call = { method: "GET", bucketName: "bucket", objectName, query: "versionId=3%2Bx", headers: { range: "bytes=16777216-33554431", "if-match": '"0123-5"' } };
      const ours = directRequestOptions(target, call, "us-east-1", date);
      const theirs = sdkSigned(sdk, call, target, "us-east-1", date);
      assert.equal(Object.entries(ours.headers), Object.entries(theirs.headers), `${objectName} on ${target.host}`);
      assert.is(ours.path, theirs.path);
      compared++;
    }
  }
  assert.is(compared, 20);
});

direct("should name itself as the SDK does", () => {
  const sdk = createSdkClient({ endPoint: "127.0.0.1", port: 9000, useSSL: false }, {}, false);
  assert.is(sdkRequestOptions(sdk, { method: "GET", bucketName: "abc", region: "us-east-1" }).headers["user-agent"], sdkUserAgent);
});

direct("should leave hosts the SDK treats otherwise to the SDK", () => {
  const at = (host: string, pathStyle = true): boolean => directCapable({ host, pathStyle });
  assert.ok(at("127.0.0.1") && at("rgw.example") && at("my-host_1.local"));
  assert.not.ok(at("s3.amazonaws.com") || at("[::1]") || at("bucket.example", false) || at("-bad") || at("a b"));
});

/** A loopback server answering each request with `reply`, counting them. */
async function server(reply: (req: IncomingMessage) => [number, Record<string, string>, string]): Promise<{ url: string; close: () => void; count: () => number }> {
  let n = 0;
  const s: Server = createServer((req, res) => {
    n++;
    req.resume();
    const [status, headers, body] = reply(req);
    res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => s.close(), count: () => n };
}

const failure = async (p: Promise<unknown>): Promise<Record<string, unknown>> => {
  try {
    await p;
  } catch (err) {
    const e = err as Error & Record<string, unknown>;
    return { ...e, name: e.name, message: e.message };
  }
  throw new Error("expected a failure");
};

direct("should fail as the SDK does, each request sent once", async () => {
  const errorXml = '<?xml version="1.0"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>nope</BucketName><RequestId>tx1</RequestId></Error>';
  const s = await server((req) =>
    req.url?.startsWith("/nope") ? [404, { "x-amz-request-id": "tx1", "content-type": "application/xml" }, errorXml]
    : req.url?.startsWith("/busy") ? [503, {}, "<Error><Code>SlowDown</Code></Error>"]
    : req.url?.startsWith("/odd") ? [301, {}, ""]
    : [200, { "content-type": "application/xml" }, "<ListBucketResult/>"],
  );
  try {
    const alias: ResolvedAlias = { name: "t", url: s.url, accessKey: "ak", secretKey: "sk", sessionToken: "", api: "s3v4", path: "auto", src: "env" };
    const ours = createS3Client(alias, { certsDir: "/nonexistent", insecure: false });
    const theirs = createSdkClient({ endPoint: "127.0.0.1", port: Number(new URL(s.url).port), useSSL: false, accessKey: "ak", secretKey: "sk", region: "us-east-1", pathStyle: true, retryOptions: { disableRetry: true } }, {}, true);
    assert.is((await s3Call(ours, { method: "GET", bucket: "fine", query: "list-type=2" })).body.toString(), "<ListBucketResult/>");
    assert.is(s.count(), 1);
    for (const bucket of ["nope", "busy", "odd"]) {
      for (const method of ["GET", "HEAD"] as const) {
        const before = s.count();
        const a = await failure(s3Call(ours, { method, bucket, query: "list-type=2" }));
        assert.is(s.count(), before + 1, `${method} ${bucket} sent once`);
        const b = await failure(s3Call(theirs, { method, bucket, query: "list-type=2" }));
        assert.equal(a, b, `${method} ${bucket}`);
      }
    }
  } finally {
    s.close();
  }
});

direct.run();
