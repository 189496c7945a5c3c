// alias set/list/remove against RGW: keys from a pipe and from a terminal, wrong secrets,
// trust on first use of a self-signed certificate, --insecure.
import { execFile, spawn } from "node:child_process";
import { X509Certificate, createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, jsonLines, mcBin, startMcFixture } from "./mc-runner.js";

const fx = await startMcFixture();
const { mc, work, rgw, configDir } = fx;
const rgwUrl = new URL(rgw.endpoint);

function sh(cmd: string, args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: cleanEnv() }, (err, stdout) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout }));
  });
}

/**
 * Runs mc under a pseudo-terminal (util-linux `script`) and types each answer
 * once its prompt has appeared, as a person would (typed-ahead input is echoed
 * by the terminal before mc can turn echo off).
 */
function mcOnTty(args: readonly string[], answers: readonly (readonly [RegExp, string])[]): Promise<{ code: number; stdout: string }> {
  const command = [process.execPath, mcBin, "-C", configDir, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env: cleanEnv(), stdio: ["pipe", "pipe", "inherit"] });
    let stdout = "";
    let next = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const answer = answers[next];
      if (answer && answer[0].test(stdout)) {
        next++;
        child.stdin.write(answer[1]);
      }
    });
    child.once("close", (code) => {
      child.stdin.end();
      resolve({ code: code ?? 1, stdout });
    });
  });
}

/** An HTTPS front for RGW with a fresh self-signed certificate (Host header kept, so signatures verify). */
async function startTlsProxy(): Promise<{ port: number; pem: string; server: Server }> {
  const key = join(work, "tls.key");
  const cert = join(work, "tls.crt");
  const made = await sh("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1"]);
  assert.is(made.code, 0);
  const pem = await readFile(cert, "utf8");
  const server = createServer({ key: await readFile(key), cert: pem }, (req, res) => {
    const upstream = httpRequest({ host: rgwUrl.hostname, port: rgwUrl.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, pem, server };
}

const tls = await startTlsProxy();

// ---

const alias = suite("alias set, list and remove");

alias("should read missing keys from a pipe :: text and json", async () => {
  const r = await mc(["alias", "set", "piped", rgw.endpoint], { input: `${rgw.accessKey}\n${rgw.secretKey}\n` });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, "Added `piped` successfully.\n");
  const j = await mc(["alias", "set", "piped2", `${rgw.endpoint}/`, rgw.accessKey, "--json"], { input: `${rgw.secretKey}\n` });
  assert.equal(jsonLines(j.stdout)[0], { status: "success", alias: "piped2", URL: rgw.endpoint, accessKey: rgw.accessKey, secretKey: rgw.secretKey, api: "s3v4", path: "auto" });
  assert.is((await mc(["ls", "piped"])).code, 0);
});

alias("should prompt on a terminal without echoing the secret", async () => {
  const r = await mcOnTty(["alias", "set", "typed", rgw.endpoint], [[/Enter Access Key: $/, `${rgw.accessKey}\r`], [/Enter Secret Key: $/, `${rgw.secretKey}\r`]]);
  assert.match(r.stdout, /Enter Access Key: TESTACCESSKEY0000001\r?\n/);
  assert.match(r.stdout, /Enter Secret Key: \r?\n/);
  assert.not.match(r.stdout, new RegExp(rgw.secretKey));
  assert.match(r.stdout, /Added `typed` successfully\./);
  const config = JSON.parse(await readFile(join(configDir, "config.json"), "utf8")) as { aliases: Record<string, { secretKey: string }> };
  assert.is(config.aliases["typed"]?.secretKey, rgw.secretKey);
});

alias("should fail on a wrong secret with SignatureDoesNotMatch and unknown keys with InvalidAccessKeyId", async () => {
  const t = await mc(["alias", "set", "wrong", rgw.endpoint, rgw.accessKey, "not-the-secret"]);
  assert.is(t.code, 1);
  assert.match(t.stderr, /^mc: <ERROR> Unable to initialize new alias from the provided credentials\. The request signature we calculated does not match/);
  const j = await mc(["alias", "set", "wrong", rgw.endpoint, "NOSUCHKEY", "x", "--json"]);
  assert.is((jsonLines(j.stdout)[0]?.["error"] as { cause: { error: { Code: string } } }).cause.error.Code, "InvalidAccessKeyId");
  const list = jsonLines((await mc(["alias", "list", "--json"])).stdout).map((o) => o["alias"]);
  assert.not.ok(list.includes("wrong"));
});

alias("should list one alias and remove it", async () => {
  const l = await mc(["alias", "list", "piped"]);
  assert.is(l.stdout, `piped\n  URL       : ${rgw.endpoint}\n  AccessKey : ${rgw.accessKey}\n  SecretKey : ${rgw.secretKey}\n  API       : s3v4\n  Path      : auto\n  Src       : ${join(configDir, "config.json")}\n`);
  assert.is((await mc(["alias", "remove", "piped"])).stdout, "Removed `piped` successfully.\n");
  assert.is((await mc(["alias", "list", "piped"])).code, 1);
});

alias.run();

// ---

const trust = suite("certificates: trust on first use and --insecure");

trust("should refuse an unknown self-signed certificate without a terminal", async () => {
  const r = await mc(["alias", "set", "tls", `https://127.0.0.1:${tls.port}`, rgw.accessKey, rgw.secretKey]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /Unable to initialize new alias from the provided credentials\. .*x509: certificate signed by unknown authority/);
});

trust("should accept the certificate with --insecure only when asked", async () => {
  const r = await mc(["alias", "set", "ins", `https://127.0.0.1:${tls.port}`, rgw.accessKey, rgw.secretKey, "--insecure"]);
  assert.is(r.code, 0, r.stderr);
  assert.is((await mc(["ls", "ins", "--insecure"])).code, 0);
  assert.is((await mc(["ls", "ins"])).code, 1);
});

trust("should refuse when the answer is no", async () => {
  const r = await mcOnTty(["alias", "set", "tofu", `https://127.0.0.1:${tls.port}`, rgw.accessKey, rgw.secretKey], [[/y\/N: $/, "n\r"]]);
  assert.match(r.stdout, /Confirm public key y\/N: /);
  assert.match(r.stdout, /Unable to initialize new alias/);
  assert.is(await stat(join(configDir, "certs", "CAs", "tofu.crt")).catch(() => undefined), undefined);
});

trust("should show the public-key fingerprint, store the certificate on yes and trust it afterwards", async () => {
  const r = await mcOnTty(["alias", "set", "tofu", `https://127.0.0.1:${tls.port}`, rgw.accessKey, rgw.secretKey], [[/y\/N: $/, "yes\r"]]);
  const spki = new X509Certificate(tls.pem).publicKey.export({ type: "spki", format: "der" });
  const fingerprint = createHash("sha256").update(spki).digest("hex");
  assert.match(r.stdout, new RegExp(`Fingerprint of tofu public key: ${fingerprint}\\r?\\nConfirm public key y/N: `));
  assert.match(r.stdout, /Added `tofu` successfully\./);
  const saved = await readFile(join(configDir, "certs", "CAs", "tofu.crt"), "utf8");
  assert.ok(new X509Certificate(saved).fingerprint256 === new X509Certificate(tls.pem).fingerprint256);
  const ls = await mc(["ls", "tofu"]);
  assert.is(ls.code, 0, ls.stderr);
});

trust.after(async () => {
  tls.server.close();
  await fx.stop();
});

trust.run();
