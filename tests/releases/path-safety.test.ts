import { mkdir, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";

interface Ctx {
  env: GatewayEnv;
  secret: string;
}

const safety = suite<Ctx>("path safety", { env: undefined as never, secret: "" });

/** A raw GET: the path goes out exactly as written (fetch would normalise it). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString("latin1")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

safety.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  ctx.secret = `SECRET-${Math.random().toString(36).slice(2)}`;
  // Outside the store, and reachable through symlinks planted inside it.
  const outside = join(ctx.env.root, "outside");
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, "secret.txt"), ctx.secret);
  await writeFile(join(ctx.env.root, "minisign.key.copy"), ctx.secret);
  const store = join(ctx.env.root, "releases");
  const notes = join(store, "client/mc/release/notes");
  await symlink(join(outside, "secret.txt"), join(notes, "release-notes-RELEASE.2020-01-01T00-00-00Z.md"));
  const archive = join(store, "client/mc/release/linux-amd64/archive");
  await symlink(join(outside, "secret.txt"), join(archive, "mc.RELEASE.2020-01-01T00-00-00Z"));
  await symlink(outside, join(store, "client/mc/release/linux-arm64/archive/escape"));
});
safety.after(async (ctx) => {
  await ctx.env.close();
});

function attempts(): string[] {
  const dots = ["..", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "..%00", "%252e%252e", "..%c0%af", "....", "..\\", "%2e%2e%5c"];
  const seps = ["/", "%2f", "%2F", "\\", "%5c", "%5C", "%252f", "//"];
  const targets = ["minisign.key.copy", "outside/secret.txt", "etc/passwd", "_catalog/client/mc/RELEASE.2026-11-18T09-15-00Z.json"];
  const prefixes = ["/client/mc/release/linux-amd64/", "/client/mc/release/notes/", "/client/mc/release/linux-amd64/archive/", "/", "/api/releases/", "/api/feeds/"];
  const out = new Set<string>();
  for (const p of prefixes) {
    for (const d of dots) {
      for (const s of seps) {
        for (const t of targets) {
          if (out.size >= 230) break;
          out.add(`${p}${d}${s}${d}${s}${d}${s}${t}`);
        }
      }
    }
  }
  out.add("/client/mc/release/notes/release-notes-RELEASE.2020-01-01T00-00-00Z.md");
  out.add("/client/mc/release/linux-amd64/archive/mc.RELEASE.2020-01-01T00-00-00Z");
  out.add("/client/mc/release/linux-arm64/archive/escape/secret.txt");
  out.add("/client/mc/release/linux-amd64/mc%00.sha256sum");
  out.add(`/client/mc/release/linux-amd64/${"a".repeat(5000)}`);
  out.add(`/client/mc/release/notes/release-notes-RELEASE.2026-11-18T09-15-00Z.md${"%2e".repeat(300)}`);
  out.add("/_catalog/client/mc/RELEASE.2026-11-18T09-15-00Z.json");
  out.add("/client/mc/release/linux-amd64/archive%2fmc.RELEASE.2026-11-18T09-15-00Z");
  return [...out];
}

safety("should never serve a byte from outside the store :: 200+ traversal and encoding attempts", async ({ env, secret }) => {
  const paths = attempts();
  assert.ok(paths.length >= 200, `only ${paths.length} attempts`);
  for (const path of paths) {
    const res = await rawGet(env.base, path);
    assert.ok(res.status === 400 || res.status === 404, `${path} answered ${res.status}`);
    assert.not.match(res.body, secret, path);
    assert.not.match(res.body, "untrusted comment: minisign encrypted secret key", path);
  }
  // The gateway still serves the real file after all that.
  assert.is((await rawGet(env.base, "/client/mc/release/linux-amd64/mc.sha256sum")).status, 200);
});

safety.run();
