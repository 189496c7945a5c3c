import { readFile } from "node:fs/promises";
import { connect as netConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { request as httpsRequest } from "node:https";
import { clientCertificateOf, createDevCa, createKmsClient, newApiKey, parseApiKey } from "@mc/kms";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { writeServerCerts } from "../harness/tls-certs.js";
import { createFixture, getStatus, runKms, type KmsFixture, type RunningKms } from "./kms-harness.js";

interface Ctx {
  fx: KmsFixture | undefined;
  kms: RunningKms | undefined;
  ca: Buffer;
}
const edge = suite<Ctx>("kms TLS edge", { fx: undefined, kms: undefined, ca: Buffer.alloc(0) });

edge.before(async (ctx) => {
  ctx.fx = await createFixture();
  ctx.kms = await runKms(ctx.fx, { KMS_HSM_KEY: "" });
  ctx.ca = await readFile(ctx.fx.certs.caFile);
});
edge.after(async (ctx) => {
  await ctx.kms?.proc.stop();
  await ctx.fx?.cleanup();
});

const must = <T>(v: T | undefined): T => {
  if (v === undefined) throw new Error("fixture missing");
  return v;
};

edge("should give a plain-HTTP request no HTTP answer", async ({ fx }) => {
  const port = must(fx).port;
  const received = await new Promise<string>((resolve) => {
    let data = "";
    const s = netConnect(port, "127.0.0.1", () => s.write("GET /v1/health/live HTTP/1.1\r\nHost: x\r\n\r\n"));
    s.on("data", (c: Buffer) => (data += c.toString("latin1")));
    s.on("close", () => resolve(data));
    s.on("error", () => resolve(data));
  });
  assert.not.match(received, /HTTP\//);
});

for (const version of ["TLSv1", "TLSv1.1"] as const) {
  edge(`should refuse ${version}`, async ({ fx, ca }) => {
    const result = await new Promise<string>((resolve) => {
      const s = tlsConnect({ host: "127.0.0.1", port: must(fx).port, ca, minVersion: version, maxVersion: version, ciphers: "DEFAULT@SECLEVEL=0" }, () => {
        resolve(`connected with ${s.getProtocol() ?? "?"}`);
        s.end();
      });
      s.on("error", (e) => resolve(`refused: ${e.message}`));
    });
    assert.match(result, /^refused/);
  });
}

edge("should accept TLS 1.2 and 1.3", async ({ fx, ca }) => {
  for (const v of ["TLSv1.2", "TLSv1.3"] as const) {
    const proto = await new Promise<string | null>((resolve, reject) => {
      const s = tlsConnect({ host: "127.0.0.1", port: must(fx).port, ca, minVersion: v, maxVersion: v }, () => {
        resolve(s.getProtocol());
        s.end();
      });
      s.on("error", reject);
    });
    assert.is(proto, v);
  }
});

edge("should serve health, version and metrics without a certificate", async ({ fx, ca }) => {
  const port = must(fx).port;
  for (const path of ["/v1/health/live", "/v1/health/ready", "/v1/health/metrics", "/version"]) assert.is(await getStatus(port, path, ca), 200, path);
  for (const path of ["/metrics", "/v1/metrics"]) assert.is(await getStatus(port, path, ca), 404, path);
});

edge("should expose the contract's metric series", async ({ fx, ca }) => {
  const client = await createKmsClient({ server: `127.0.0.1:${must(fx).port}`, ca });
  const res = await client.send("GET", "/v1/health/metrics");
  assert.is(res.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8");
  const text = res.body.toString();
  for (const name of ["consens_elections", "consens_term", "consens_leader", "consens_commit_index", "consens_applied_index", "consens_peer_rtt_seconds", "consens_nodes", "http_request", "http_request_inflight", "http_request_duration", "http_request_size", "http_response_size", "http_request_canceled", "http_request_timeout"]) {
    assert.match(text, new RegExp(`^# TYPE ${name} `, "m"), name);
  }
  assert.not.match(text, /_total/);
  assert.match(text, /^consens_leader 1$/m);
  client.close();
});

edge("should answer a key route without a certificate with 401", async ({ fx, ca }) => {
  const client = await createKmsClient({ server: `127.0.0.1:${must(fx).port}`, ca });
  const res = await client.send("POST", "/v1/key/create/k", {});
  assert.is(res.status, 401);
  assert.is(res.headers["content-type"], "application/json");
  assert.equal(JSON.parse(res.body.toString()), { message: "tls: client certificate is required" });
  client.close();
});

edge("should map an untrusted server certificate to Go's message", async ({ fx, kms }) => {
  const other = await writeServerCerts(`${must(fx).dir}/other-ca`);
  const client = await createKmsClient({ server: `127.0.0.1:${must(fx).port}`, ca: await readFile(other.caFile), ...(kms?.rootApiKey ? { apiKey: kms.rootApiKey } : {}) });
  await client.call("GET", "/v1/status").then(
    () => assert.unreachable(),
    (e: Error) => assert.is(e.message, "tls: certificate signed by unknown authority"),
  );
  const noCa = await createKmsClient({ server: `127.0.0.1:${must(fx).port}` });
  await noCa.call("GET", "/v1/health/live").then(
    () => assert.unreachable(),
    (e: Error) => assert.is(e.message, "tls: certificate signed by unknown authority"),
  );
  client.close();
  noCa.close();
});

edge("should fail over to the next node when one is unreachable", async ({ fx, kms, ca }) => {
  const dead = await freePort();
  const client = await createKmsClient({ server: `127.0.0.1:${dead}`, fallbacks: [`127.0.0.1:${must(fx).port}`], ca, ...(kms?.rootApiKey ? { apiKey: kms.rootApiKey } : {}) });
  assert.is((await client.call<{ status: string }>("GET", "/v1/health/live")).status, "ok");
  client.close();
});

/** GET with a client certificate PEM that may hold several certificates; status and body. */
function getWith(port: number, path: string, ca: Buffer, cert: string, key: string, maxVersion: "TLSv1.2" | "TLSv1.3" = "TLSv1.3"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: "127.0.0.1", port, path, ca, cert, key, maxVersion, agent: false }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

edge("should refuse two unrelated leaf certificates in one handshake and accept a leaf with its issuer", async ({ fx, kms, ca }) => {
  const port = must(fx).port;
  const root = await clientCertificateOf(parseApiKey(must(kms).rootApiKey ?? "") ?? new Uint8Array(32));
  const other = await clientCertificateOf(parseApiKey(newApiKey()) ?? new Uint8Array(32));
  const tooMany = { status: 400, body: { message: "tls: received more than one client certificate" } };
  // The root's own key signs the handshake; the second leaf rides along (TLS 1.3 encrypts that message, 1.2 does not).
  for (const version of ["TLSv1.2", "TLSv1.3"] as const) {
    for (const pem of [root.cert + other.cert, root.cert + other.cert + root.cert]) {
      const res = await getWith(port, "/v1/status", ca, pem, root.key, version);
      assert.equal({ status: res.status, body: JSON.parse(res.body) as unknown }, tooMany, version);
    }
  }
  assert.is((await getWith(port, "/v1/status", ca, root.cert, root.key)).status, 200);
  // A CA-issued leaf followed by its CA is one chain: authenticated (an unknown identity, so 403), not refused.
  const clientCa = await createDevCa(`client CA ${Date.now()}`);
  const leaf = await clientCa.issueClient("operator");
  const chained = await getWith(port, "/v1/status", ca, leaf.cert + clientCa.cert, leaf.key);
  assert.is(chained.status, 403, chained.body);
  // Two leaves of one CA, with the CA: still two leaves.
  const second = await clientCa.issueClient("intruder");
  const twoOfOne = await getWith(port, "/v1/status", ca, leaf.cert + second.cert + clientCa.cert, leaf.key);
  assert.equal({ status: twoOfOne.status, body: JSON.parse(twoOfOne.body) as unknown }, tooMany);
});

edge.run();
