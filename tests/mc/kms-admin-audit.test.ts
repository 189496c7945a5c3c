// `mc admin kms log --audit` follows the audit stream of a real KMS process:
// the test's own operations as they happen, with identities, never key
// material; Ctrl-C ends it with 130 and a closed pipe with 141.
import { spawn } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { line, mc, ok, startKmsForMc, stopKmsForMc, type Ctx } from "./kms-admin-fixture.js";
import { cleanEnv, mcBin, spawnMc } from "./mc-runner.js";

const test = suite<Ctx>("mc admin kms log --audit (one KMS process)");
test.before(startKmsForMc);
test.after(stopKmsForMc);

test("log --audit follows the test's own operations with identities and no key material; Ctrl-C is 130, a closed pipe 141", async (ctx) => {
  const follower = spawnMc(["-C", ctx.configDir, "admin", "kms", "log", "kms", "--audit"]);
  let out = "";
  follower.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  const closed = new Promise<number | null>((resolve) => follower.once("close", resolve));
  // The subscription starts at some point after spawn: probe until a probe shows up.
  let probes = 0;
  await waitFor(async () => {
    ok(await mc(ctx, ["admin", "kms", "key", "list", "kms", `probe-${probes++}-*`]));
    return out.includes("/v1/key/list/probe-");
  }, { what: "the audit stream to carry a probe", timeoutMs: 20000 });
  const created = line(ok(await mc(ctx, ["admin", "kms", "identity", "create", "kms", "--json"])));
  ok(await mc(ctx, ["admin", "kms", "key", "create", "kms", "audited"]));
  ok(await mc(ctx, ["admin", "kms", "key", "status", "kms", "audited"]));
  await waitFor(() => out.includes("/v1/key/decrypt/audited"), { what: "the decrypt in the audit stream", timeoutMs: 15000 });
  const rootId = /Identity (h1:\S+)/.exec(ctx.node.proc.output())?.[1] ?? "?";
  const lines = out.split("\n");
  const createLine = lines.find((l) => l.includes("/v1/key/create/audited")) ?? "";
  assert.match(createLine, new RegExp(`^\\S+Z  200  ${rootId.replace(/[+]/g, "\\+")}  127\\.0\\.0\\.1  default  /v1/key/create/audited  \\S+$`));
  assert.ok(lines.some((l) => l.includes(`/v1/identity/create/${String(created["identity"])}`)), "the identity creation is audited");
  assert.not.ok(out.includes("k1:"), "no API key in the audit stream");
  assert.not.ok(out.includes(String(created["apiKey"]).slice(3)), "the new identity's key is not there either");
  follower.kill("SIGINT");
  assert.is(await closed, 130);

  // `| head -n 1`: mc ends at its next write, silently, with 141 like the other streams.
  const shell = spawn("bash", ["-c", `"${process.execPath}" "${mcBin}" -C "${ctx.configDir}" admin kms log kms --audit --json | head -n 1; echo "status \${PIPESTATUS[0]}" >&2`], { env: cleanEnv() });
  let err = "";
  let first = "";
  shell.stderr.on("data", (c: Buffer) => (err += c.toString()));
  shell.stdout.on("data", (c: Buffer) => (first += c.toString()));
  const shellDone = new Promise<void>((resolve) => shell.once("close", () => resolve()));
  let n = 0;
  await waitFor(async () => {
    ok(await mc(ctx, ["admin", "kms", "key", "list", "kms", `pipe-${n++}-*`]));
    return err.includes("status ");
  }, { what: "mc to notice the closed pipe", timeoutMs: 30000 });
  await shellDone;
  assert.is(err, "status 141\n");
  const record = JSON.parse(first) as { request: { identity: string; path: string }; response: { code: number } };
  assert.is(record.request.identity, rootId);
});

test.run();
