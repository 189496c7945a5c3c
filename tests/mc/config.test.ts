// Global behaviour without a server: config format, first run, aliases from the environment, version, help, unknown commands.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, runMc } from "./mc-runner.js";

const root = await mkdtemp(join(tmpdir(), "mc-config-test-"));

/** A config.json as the original client writes it: tab indentation, every field on its own line. */
const original = `{
	"version": "10",
	"aliases": {
		"gcs": {
			"url": "https://storage.googleapis.com",
			"accessKey": "YOUR-ACCESS-KEY-HERE",
			"secretKey": "YOUR-SECRET-KEY-HERE",
			"api": "S3v2",
			"path": "dns"
		},
		"local": {
			"url": "http://localhost:9000",
			"accessKey": "",
			"secretKey": "",
			"api": "S3v4",
			"path": "auto"
		},
		"play": {
			"url": "https://play.min.io",
			"accessKey": "Q3AM3UQ867SPQQA43P2F",
			"secretKey": "zuf+tfteSlswRu7BJ86wekitnifILbZam1KYY3TG",
			"api": "S3v4",
			"path": "auto"
		},
		"s3": {
			"url": "https://s3.amazonaws.com",
			"accessKey": "YOUR-ACCESS-KEY-HERE",
			"secretKey": "YOUR-SECRET-KEY-HERE",
			"api": "S3v4",
			"path": "dns"
		}
	}
}
`;

// ---

const format = suite("config.json in the original client's format");

format("should read and rewrite the original file without losing a field :: byte-identical", async () => {
  const dir = join(root, "orig");
  await rm(dir, { recursive: true, force: true });
  await runMc(["-C", dir, "alias", "list", "--quiet"]).catch(() => undefined);
  await writeFile(join(dir, "config.json"), original);
  const added = await runMc(["-C", dir, "alias", "set", "kms", "http://127.0.0.1:1", "--api-key", "k1:secret"]);
  assert.is(added.code, 0, added.stderr);
  const removed = await runMc(["-C", dir, "alias", "remove", "kms"]);
  assert.is(removed.stdout, "Removed `kms` successfully.\n");
  assert.is(await readFile(join(dir, "config.json"), "utf8"), original);
  assert.is((await stat(join(dir, "config.json"))).mode & 0o777, 0o600);
});

format("should keep unknown fields and list aliases sorted :: text and json", async () => {
  const dir = join(root, "extra");
  await runMc(["-C", dir, "alias", "list", "--quiet"]);
  const config = JSON.parse(original) as { aliases: Record<string, Record<string, unknown>>; [k: string]: unknown };
  config.aliases["play"] = { ...config.aliases["play"], license: "abc", futureField: [1, 2] };
  config["futureTop"] = { a: 1 };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, "\t"));
  await runMc(["-C", dir, "alias", "set", "zed", "http://127.0.0.1:1", "--api-key", "k1:xyz"]);
  const back = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as typeof config;
  assert.equal(back.aliases["play"], config.aliases["play"]);
  assert.equal(back["futureTop"], { a: 1 });
  assert.equal(Object.keys(back.aliases), ["gcs", "local", "play", "s3", "zed"]);
  const list = await runMc(["-C", dir, "alias", "list"]);
  assert.match(list.stdout, /^gcs\n  URL       : https:\/\/storage\.googleapis\.com\n  AccessKey : YOUR-ACCESS-KEY-HERE\n/);
  assert.match(list.stdout, /\nlocal\n  URL       : http:\/\/localhost:9000\n  AccessKey : \n  SecretKey : \n  API       : \n  Path      : auto\n  Src       : .*config\.json\n/);
  assert.match(list.stdout, /\nzed\n  URL       : http:\/\/127\.0\.0\.1:1\n.*\n.*\n.*\n  Path      : auto\n  APIKey    : k1:\*\*\*\*\n/);
  const json = jsonLines((await runMc(["-C", dir, "alias", "list", "--json"])).stdout);
  assert.equal(Object.keys(json[2] ?? {}), ["status", "alias", "URL", "accessKey", "secretKey", "api", "path", "src"]);
});

format.run();

// ---

const firstRun = suite("first run and the environment");

firstRun("should create config, share files and certs with mode 0700 and say so", async () => {
  const dir = join(root, "fresh");
  const r = await runMc(["-C", dir, "alias", "list"]);
  assert.is(r.code, 0);
  assert.match(r.stderr, new RegExp(`^mc: Configuration written to \`${join(dir, "config.json")}\`\\. Please update your access credentials\\.\\n$`));
  for (const sub of ["certs", "certs/CAs", "share"]) assert.is((await stat(join(dir, sub))).mode & 0o777, 0o700);
  assert.equal(JSON.parse(await readFile(join(dir, "share", "downloads.json"), "utf8")), { version: "1", shares: {} });
  const quiet = await runMc(["-C", join(root, "fresh-quiet"), "alias", "list", "--quiet"]);
  assert.is(quiet.stderr, "");
});

firstRun("should take MC_CONFIG_DIR, MC_JSON and MC_HOST_<alias>", async () => {
  const env = { MC_CONFIG_DIR: join(root, "env"), MC_JSON: "true", MC_HOST_envy: "http://AK:SK@127.0.0.1:1" };
  const r = await runMc(["alias", "list", "envy"], { env });
  assert.equal(jsonLines(r.stdout)[0], { status: "success", alias: "envy", URL: "http://127.0.0.1:1", accessKey: "AK", secretKey: "SK", api: "S3v4", path: "auto", src: "env" });
  const off = await runMc(["alias", "list", "envy"], { env: { ...env, MC_JSON: "0" } });
  assert.match(off.stdout, /^envy\n  URL       : http:\/\/127\.0\.0\.1:1\n/);
});

firstRun("should read aliases from MC_CONFIG_ENV_FILE", async () => {
  const file = join(root, "hosts.env");
  await writeFile(file, "MC_HOST_fromfile=http://A:B@127.0.0.1:2\n");
  const r = await runMc(["-C", join(root, "env"), "alias", "list", "fromfile", "--json"], { env: { MC_CONFIG_ENV_FILE: file } });
  assert.is(jsonLines(r.stdout)[0]?.["URL"], "http://127.0.0.1:2");
});

firstRun("should default to ~/.mc from HOME", async () => {
  const home = join(root, "home");
  const r = await runMc(["alias", "list", "--quiet"], { env: { HOME: home } });
  assert.is(r.code, 0);
  assert.ok((await stat(join(home, ".mc", "config.json"))).isFile());
});

firstRun.run();

// ---

const global = suite("version, help, usage and unknown commands");

global("should print four version lines and exit 0", async () => {
  const r = await runMc(["--version"]);
  assert.is(r.code, 0);
  const lines = r.stdout.split("\n");
  assert.is(lines.length, 5);
  assert.match(lines[0] ?? "", /^mc version \S+ \(commit-id=\S+\)$/);
  assert.match(lines[1] ?? "", /^Runtime: \S+ linux\/\w+$/);
  assert.match(lines[2] ?? "", /^Copyright \(c\) 2015-\d{4} MinIO, Inc\.$/);
  assert.is(lines[3], "License GNU AGPLv3 <https://www.gnu.org/licenses/agpl-3.0.html>");
});

global("should exit 1 for a bare mc and 0 for --help", async () => {
  assert.is((await runMc([])).code, 1);
  const help = await runMc(["--help"]);
  assert.is(help.code, 0);
  assert.match(help.stdout, /cp/);
  const cmdHelp = await runMc(["cp", "--help"]);
  assert.is(cmdHelp.code, 0);
  assert.match(cmdHelp.stdout, /--recursive/);
});

global("should reject an unknown command with suggestions", async () => {
  const r = await runMc(["lss"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> `lss` is not a recognized command\. Get help using `--help` flag\.\nDid you mean one of these\?\n\t‘ls’\n/);
});

global("should accept global flags before the command and flags after positionals", async () => {
  const dir = join(root, "order");
  const r = await runMc(["--json", "-C", dir, "alias", "list", "local"]);
  assert.is(jsonLines(r.stdout)[0]?.["alias"], "local");
  const after = await runMc(["alias", "list", "local", "-C", dir, "--json"]);
  assert.is(jsonLines(after.stdout)[0]?.["alias"], "local");
});

global("should print JSON errors on stdout, one line, with --json", async () => {
  const r = await runMc(["-C", join(root, "order"), "alias", "remove", "nosuch", "--json"]);
  assert.is(r.code, 1);
  assert.is(r.stderr, "");
  assert.is(r.stdout.trim().split("\n").length, 1);
  assert.equal(jsonLines(r.stdout)[0], { status: "error", error: { message: "No such alias `nosuch` found.", cause: { message: "No such alias `nosuch` found.", error: {} }, type: "fatal" } });
});

global("should add trace and sysinfo with --debug", async () => {
  const r = await runMc(["-C", join(root, "order"), "alias", "remove", "nosuch", "--json", "--debug"]);
  const error = jsonLines(r.stdout)[0]?.["error"] as Record<string, unknown>;
  assert.ok("trace" in error && "sysinfo" in error);
});

global("should say what to check when the server cannot be reached", async () => {
  const r = await runMc(["-C", join(root, "order"), "ls", "dead/bucket"], { env: { MC_HOST_dead: "http://a:b@127.0.0.1:1" } });
  assert.is(r.code, 1);
  assert.match(r.stderr, /^mc: <ERROR> Unable to list `dead\/bucket`\. .*ECONNREFUSED.*Check the URL of the alias and that the server is running and reachable\.\n$/);
});

global("should validate alias names and URLs", async () => {
  const bad = await runMc(["-C", join(root, "order"), "alias", "set", "1bad", "http://x", "a", "b"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /Invalid alias name/);
  const url = await runMc(["-C", join(root, "order"), "alias", "set", "ok", "ftp://x", "a", "b"]);
  assert.is(url.code, 1);
});

global.after(async () => {
  await rm(root, { recursive: true, force: true });
});

global.run();
