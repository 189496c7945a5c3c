// One real KMS process (harness) and an mc config with the root alias `kms`
// trusting its CA, shared by the tests/mc/kms-admin-* suites.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as assert from "uvu/assert";
import { createFixture, runKms, type KmsFixture, type RunningKms } from "../kms/kms-harness.js";
import { writeShims } from "./kms-recipes.js";
import { jsonLines, runMc, type McResult } from "./mc-runner.js";

export interface Ctx {
  root: string;
  configDir: string;
  fx: KmsFixture;
  node: RunningKms;
  url: string;
  bin: string;
}

export const mc = (ctx: Ctx, args: readonly string[], input?: string): Promise<McResult> => runMc(["-C", ctx.configDir, ...args], input === undefined ? {} : { input });
export const ok = (r: McResult): McResult => {
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  return r;
};
export const line = (r: McResult): Record<string, unknown> => jsonLines(r.stdout)[0] ?? {};

export async function startKmsForMc(ctx: Ctx): Promise<void> {
  ctx.root = await mkdtemp(join(tmpdir(), "mc-kms-admin-"));
  ctx.configDir = join(ctx.root, "home", ".mc");
  ctx.fx = await createFixture("software");
  ctx.node = await runKms(ctx.fx);
  ctx.url = `https://127.0.0.1:${ctx.fx.port}`;
  ctx.bin = await writeShims(ctx.root);
  ok(await mc(ctx, ["alias", "set", "kms", ctx.url, "--api-key", ctx.node.rootApiKey ?? ""]));
  await copyFile(ctx.fx.certs.caFile, join(ctx.configDir, "certs", "CAs", "kms.crt"));
}

export async function stopKmsForMc(ctx: Ctx): Promise<void> {
  // Tolerates a set-up that failed half way, so that its error is the one reported.
  await ctx.node?.proc.stop();
  await ctx.fx?.cleanup();
  if (ctx.root) await rm(ctx.root, { recursive: true, force: true });
}
