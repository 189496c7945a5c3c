import { gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { ListReleasesRequestSchema, ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createConnectInputCheck } from "@mc/shared/rest";

const check = createConnectInputCheck([ReleaseService], 64 * 1024);
const list = "/releases.v1.ReleaseService/ListReleases";
const watch = "/releases.v1.ReleaseService/WatchCatalog";
const message = toBinary(ListReleasesRequestSchema, create(ListReleasesRequestSchema, { product: "client" }));

function envelope(flags: number, data: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(data.byteLength, 1);
  return Buffer.concat([head, data]);
}

const input = suite("connect input check");

input("should pass well-formed bodies and what the adapter answers itself", () => {
  assert.is(check("POST", list, { "content-type": "application/proto" }, message), "ok");
  assert.is(check("POST", list, { "content-type": "application/json; charset=utf-8" }, Buffer.from('{"product":"client","unknown":1}')), "ok");
  assert.is(check("POST", list, { "content-type": "application/proto", "content-encoding": "gzip" }, gzipSync(message)), "ok");
  assert.is(check("POST", watch, { "content-type": "application/connect+proto" }, envelope(0, new Uint8Array(0))), "ok");
  assert.is(check("POST", list, { "content-type": "application/grpc-web+proto" }, envelope(0, message)), "ok");
  // Unknown method, GET, an unknown content type or encoding: connect-node refuses those before parsing.
  assert.is(check("POST", "/releases.v1.ReleaseService/Nope", { "content-type": "application/proto" }, Buffer.from([0x0f])), "ok");
  assert.is(check("GET", list, { "content-type": "application/proto" }, Buffer.from([0x0f])), "ok");
  assert.is(check("POST", list, { "content-type": "text/plain" }, Buffer.from([0x0f])), "ok");
  assert.is(check("POST", list, { "content-type": "application/proto", "content-encoding": "zstd" }, Buffer.from([0x0f])), "ok");
});

input("should find bodies that do not parse as the method's input", () => {
  assert.is(check("POST", list, { "content-type": "application/proto" }, Buffer.from([0x0f, 0x01])), "invalid");
  assert.is(check("POST", list, { "content-type": "application/json" }, Buffer.from("")), "invalid");
  assert.is(check("POST", list, { "content-type": "application/proto", "content-encoding": "gzip" }, Buffer.from("not gzip")), "invalid");
  assert.is(check("POST", watch, { "content-type": "application/connect+proto" }, envelope(0, new Uint8Array(0)).subarray(0, 4)), "invalid");
  assert.is(check("POST", watch, { "content-type": "application/connect+proto" }, envelope(1, new Uint8Array(0))), "invalid", "compressed flag without an encoding");
  assert.is(check("POST", watch, { "content-type": "application/connect+proto" }, envelope(2, new Uint8Array(0))), "invalid", "end-stream flag from a client");
  assert.is(check("POST", list, { "content-type": "application/grpc" }, Buffer.concat([envelope(0, message), envelope(0, Buffer.from([0x0f]))])), "invalid");
});

input("should count a compressed body at its inflated size", () => {
  const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
  assert.ok(bomb.byteLength < 64 * 1024);
  assert.is(check("POST", list, { "content-type": "application/proto", "content-encoding": "gzip" }, bomb), "too_large");
  assert.is(check("POST", watch, { "content-type": "application/connect+proto", "connect-content-encoding": "gzip" }, envelope(1, bomb)), "too_large");
});

input.run();
