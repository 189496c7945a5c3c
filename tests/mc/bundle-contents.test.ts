// Issue 18: what goes into the `mc` executable, read from esbuild's metafile of
// a release build (one file, the lazily loaded KMS client and minisign
// verifier inlined, so it holds everything mc can ever load). It is built with
// no resolver special case (cli/scripts/build.mjs), so only the package faces
// mc imports decide its contents: no NATS, no Connect server adapter, no pino,
// and of the services only the errors entry and the KMS client face.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "./mc-runner.js";

/** Outside packages that carry transport or belong to servers. */
const serverModules = /(^|\/)node_modules\/(@nats-io|nats|@connectrpc\/connect-node|pino|pino-[^/]+|thread-stream|prom-client|pkcs11js|yaml)\//;
/** The only service sources mc may contain: the errors entry, the closed-pipe helper, the KMS client face (API keys, X.509, cluster view). */
const allowedServiceSources = /^services\/(shared\/src\/(errors|app-error|process\/(closed-pipe|syntax-error))\.ts|kms\/src\/(client\/[^/]+|adapters\/tls\/(api-key|x509)|cli\/cluster-view|domain\/identity)(\.ts)?)$/;

const test = suite<{ inputs: string[]; dir: string }>("mc bundle contents", { inputs: [], dir: "" });

test.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), "mc-bundle-"));
  const meta = join(ctx.dir, "meta.json");
  const build = join(repoRoot, "cli", "scripts", "build.mjs");
  await promisify(execFile)(process.execPath, [build, "--release", "RELEASE.2026-01-05T10-00-00Z", "--out", join(ctx.dir, "mc"), "--metafile", meta]);
  ctx.inputs = Object.keys((JSON.parse(await readFile(meta, "utf8")) as { inputs: Record<string, unknown> }).inputs);
});

test.after(async (ctx) => {
  await rm(ctx.dir, { recursive: true, force: true });
});

test("should read a metafile of the whole program :: the command line, the S3 SDK, the KMS client and minisign are in", (ctx) => {
  for (const part of ["cli/src/main.ts", "node_modules/clipanion/", "node_modules/minio/", "services/kms/src/client/kms-client.ts", "wasm/src/minisign-verify.ts"]) {
    assert.ok(ctx.inputs.some((i) => i.includes(part)), `${part} is in the bundle`);
  }
});

test("should contain no NATS, Connect server adapter, pino or other server module", (ctx) => {
  assert.equal(ctx.inputs.filter((i) => serverModules.test(i)), []);
});

test("should contain no server code :: of the services only the errors entry and the KMS client face", (ctx) => {
  const services = ctx.inputs.filter((i) => /^(services|gateway|app)\//.test(i));
  assert.equal(services.filter((i) => !allowedServiceSources.test(i)), []);
});

test.run();
