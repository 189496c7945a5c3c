// What a block does beyond its exit status and shown output, checked through
// the fixture: the checks the recipe suites of issues 17 and 20 made
// (tests/ops/publish-recipes.test.ts, tests/mc/kms-admin-recipes.test.ts), so
// they hold for the doc runner's run of the same blocks.
import * as assert from "uvu/assert";
import type { RunnableBlock } from "./doc-blocks.js";
import type { Fixture } from "./doc-fixtures.js";
import { docReleaseId } from "./doc-setups.js";
import type { BlockResult } from "./run-block.js";

interface Effect {
  /** Which blocks it applies to: a command their script holds. */
  readonly when: RegExp;
  check(fx: Fixture, r: BlockResult, name: string): Promise<void>;
}

async function latestRelease(gatewayUrl: string): Promise<string> {
  const body = (await (await fetch(`${gatewayUrl}/api/releases/client/latest`)).json()) as Array<{ release_id?: string }>;
  return body[0]?.release_id ?? "";
}

const effects: readonly Effect[] = [
  {
    // The README promises: the API names the new release on every gateway within 2 s, and serves its files.
    when: /\breleases publish\b/,
    async check(fx, _r, name) {
      if (!fx.gatewayUrl) return;
      const deadline = Date.now() + 2000;
      let latest = await latestRelease(fx.gatewayUrl);
      while (latest !== docReleaseId && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        latest = await latestRelease(fx.gatewayUrl);
      }
      assert.is(latest, docReleaseId, `${name}: the published release is not the latest in the ${fx.kind} deployment's API within 2 s`);
      const bin = await fetch(`${fx.gatewayUrl}/client/mc/release/linux-amd64/mc`);
      assert.match(await bin.text(), `mc ${docReleaseId} linux-amd64`, `${name}: the download is not the published binary`);
    },
  },
  {
    // Issue 19: a clean install warns about no dependency's engine range.
    when: /\bnpm ci\b/,
    async check(fx, r, name) {
      if (fx.kind === "clone") assert.not.match(r.stdout + r.stderr, /EBADENGINE/, `${name}: npm ci warned about engines:\n${r.stderr}`);
    },
  },
  {
    when: /mc admin kms key create kms app-key$/m,
    async check(_fx, r, name) {
      assert.match(r.stdout, /Created master key `app-key` successfully/, `${name}: no key created:\n${r.stdout}`);
    },
  },
  {
    when: /mc admin kms identity info app\b/,
    async check(_fx, r, name) {
      assert.match(r.stdout, /Policies: app-keys\nIdentity: h1:/, `${name}: the service's identity lacks its policy:\n${r.stdout}`);
      assert.match(r.stdout, /Key: app-1\n {3}- Encryption ✔\n {3}- Decryption ✔\n/, `${name}: the service's key does not work:\n${r.stdout}`);
    },
  },
  {
    when: /mc admin kms key info kms app-key --enclave tenant-1/,
    async check(_fx, r, name) {
      assert.match(r.stdout, /Key: app-key\nVersion: 1\n/, `${name}: no key in the new enclave:\n${r.stdout}`);
    },
  },
  {
    when: /mc admin kms key list user$/m,
    async check(_fx, r, name) {
      assert.not.match(r.stderr, /not authorized/, `${name}: the fixed identity still may not list keys:\n${r.stderr}`);
    },
  },
];

export async function checkEffects(block: RunnableBlock, fx: Fixture, r: BlockResult): Promise<void> {
  const name = `${block.file}:${block.line}`;
  for (const e of effects) if (e.when.test(block.script)) await e.check(fx, r, name);
}
