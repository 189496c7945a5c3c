import { suite } from "uvu";
import * as assert from "uvu/assert";
import { nodeIdOf, parseAddress, parseConfig } from "./config.js";
import { resolvePaths } from "./load-config.js";

const config = suite("kms configuration");

config("should parse the documented layout", () => {
  const c = resolvePaths(
    parseConfig(
      `version: v1
address: 127.0.0.1:7374
data_dir: data
admin: {identity: h1:Rvxa7nj8zkL48CeDkN6LhpX-K7KK6uhIhpBOcTHNhWw}
tls: {cert: server.crt, key: server.key, ca: ca.pem, auth: verify}
hsm: {passphrase: {env: PASS, salt: AAAAAAAAAAAAAAAAAAAAAA==}}
enclaves: [default, b]
log: {audit: stdout}
`,
      {},
    ),
    "/etc/kms",
  );
  assert.equal(c, {
    host: "127.0.0.1",
    port: 7374,
    dataDir: "/etc/kms/data",
    adminIdentity: "h1:Rvxa7nj8zkL48CeDkN6LhpX-K7KK6uhIhpBOcTHNhWw",
    tls: { cert: "/etc/kms/server.crt", key: "/etc/kms/server.key", ca: "/etc/kms/ca.pem", auth: "verify" },
    hsm: { kind: "passphrase", env: "PASS", salt: "AAAAAAAAAAAAAAAAAAAAAA==" },
    enclaves: ["default", "b"],
    audit: "stdout",
  });
});

config("should let KMS_HSM_KEY override hsm.key and default the rest", () => {
  const c = parseConfig("tls: {cert: a, key: b}\nhsm: {key: x}\n", { KMS_HSM_KEY: "hsm:aes256:y" });
  assert.equal(c.hsm, { kind: "key", key: "hsm:aes256:y" });
  assert.equal([c.host, c.port, c.dataDir, c.enclaves, c.audit], ["0.0.0.0", 7373, "data", ["default"], "off"]);
  assert.is(parseConfig("address: 1.2.3.4:1\n", {}).tls, undefined);
  assert.is(parseConfig("tls: {cert: a}\n", {}).hsm, undefined);
});

config("should parse addresses", () => {
  assert.equal(parseAddress(":7373"), { host: "0.0.0.0", port: 7373 });
  assert.equal(parseAddress("[::1]:80"), { host: "::1", port: 80 });
  assert.throws(() => parseAddress("nope"), /is not HOST:PORT/);
});

config("should parse the commented example", async () => {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(new URL("./kms.example.yaml", import.meta.url), "utf8");
  const c = parseConfig(text, {});
  assert.equal([c.host, c.port, c.tls?.auth, c.hsm?.kind, c.audit], ["0.0.0.0", 7373, "off", "key", "audit.log"]);
});

config("should parse the cluster section and derive node ids", () => {
  const c = parseConfig("cluster: {nats: nats://127.0.0.1:4222, host: kms1.example.net:7373, nodes: [kms1.example.net:7373, kms2.example.net:7373]}\n", {});
  assert.equal(c.cluster, { nats: "nats://127.0.0.1:4222", id: "kms", host: "kms1.example.net:7373", nodes: ["kms1.example.net:7373", "kms2.example.net:7373"] });
  assert.is(nodeIdOf("kms1.example.net:7373"), "kms1_example_net_7373");
  assert.not.ok("cluster" in parseConfig("address: :7373\n", {}));
  assert.throws(() => parseConfig("cluster: {host: a:1, nodes: [a:1]}\n", {}), /cluster.nats is required/);
  assert.throws(() => parseConfig("cluster: {nats: x, host: a:1, nodes: []}\n", {}), /cluster.nodes/);
  assert.throws(() => parseConfig("cluster: {nats: x, id: a.b, host: a:1, nodes: [a:1]}\n", {}), /cluster.id/);
});

config.run();
