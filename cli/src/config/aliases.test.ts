import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parseHostUrl, resolveAliases } from "./aliases.js";

const hosts = suite("MC_HOST_<alias>");

hosts("should parse keys and a session token from the URL", () => {
  const a = parseHostUrl("x", "https://AK:SK:TOKEN@example.com:9000");
  assert.is(a.url, "https://example.com:9000");
  assert.is(a.accessKey, "AK");
  assert.is(a.secretKey, "SK");
  assert.is(a.sessionToken, "TOKEN");
  assert.is(a.src, "env");
});

hosts("should decode percent-escaped keys", () => {
  assert.is(parseHostUrl("x", "http://a%2Fb:s%40c@h").secretKey, "s@c");
});

hosts("should override config.json", () => {
  const config = { version: "10", aliases: { x: { url: "http://config", accessKey: "a", secretKey: "b", api: "S3v4", path: "auto" } } };
  const all = resolveAliases(config, "/c/config.json", { MC_HOST_x: "http://k:s@env:1" });
  assert.is(all.get("x")?.url, "http://env:1");
  assert.is(all.get("x")?.src, "env");
});

hosts.run();
