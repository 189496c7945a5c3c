// `npm run release -- mc [--release ID] [--out DIR] [--notes FILE] [--pubkey FILE|URL]
//   [--no-publish] [target flags of `releases publish`]`: builds the mc single
// executable for linux-amd64 with the deployment's publisher key in it, writes
// its four documents, and publishes the directory through `releases publish`
// (issue 14's path: it validates, signs with the deployment's minisign key
// and makes it the latest). One line and exit 1 for every mistake.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { initCrypto, minisignPublicKeyLine, minisignPublicKeyOf, parseMinisignPublicKey, parseMinisignSecretKey } from "@mc/wasm";
import { buildMcRelease, repoRoot } from "./mc-release.js";

const usage = `Usage: npm run release -- mc [options]

Builds mc as one executable for linux-amd64, writes its release notes, SBOMs
(CycloneDX 1.6, SPDX 2.3) and module list, and publishes them with
\`releases publish\` (which signs with the deployment's minisign key).

  --release ID      release id (default: now, RELEASE.<yyyy-mm-ddThh-mm-ssZ>)
  --out DIR         where the release directory is written (default dist/mc-<ID>)
  --notes FILE      more Markdown for the release notes
  --pubkey FILE|URL the deployment's minisign.pub, built into mc for \`mc update\`
                    (default: derived from the signing key of --data-dir/--key;
                    needed with --nats, e.g. http://127.0.0.1:8080/minisign.pub)
  --no-publish      build and write the directory only
  --nats URL | --data-dir DIR | --store S --key FILE --offline
                    the deployment, as \`releases publish\` takes it
`;

const releaseNow = (d = new Date()): string => `RELEASE.${d.toISOString().slice(0, 19).replaceAll(":", "-")}Z`;

class UsageError extends Error {}

/** The key line of a minisign.pub text (file or URL). */
async function publicKeyLineFrom(where: string): Promise<string> {
  let text: string;
  try {
    text = /^https?:\/\//.test(where) ? await fetch(where).then(async (r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`)))) : await readFile(where, "utf8");
  } catch (err) {
    throw new UsageError(`--pubkey ${where}: ${err instanceof Error ? err.message : String(err)}`);
  }
  await initCrypto();
  try {
    return minisignPublicKeyLine(parseMinisignPublicKey(text));
  } catch {
    throw new UsageError(`--pubkey ${where}: not a minisign public key`);
  }
}

/** The public key line of the deployment's signing key file. */
async function publicKeyLineOfSecret(keyFile: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(keyFile, "utf8");
  } catch {
    throw new UsageError(`no release signing key at ${keyFile}: start the deployment once (npm start), or name its minisign.pub with --pubkey`);
  }
  await initCrypto();
  return minisignPublicKeyLine(minisignPublicKeyOf(parseMinisignSecretKey(text)));
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      release: { type: "string" },
      out: { type: "string" },
      notes: { type: "string" },
      pubkey: { type: "string" },
      "no-publish": { type: "boolean", default: false },
      nats: { type: "string" },
      "data-dir": { type: "string" },
      store: { type: "string" },
      key: { type: "string" },
      offline: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== "mc") throw new UsageError(`release: name the product to build: mc (got ${positionals.join(" ") || "nothing"})`);
  const releaseId = values.release ?? releaseNow();
  const natsUrl = values.nats ?? (process.env["NATS_URL"] || undefined);
  let keyLine: string;
  if (values.pubkey !== undefined) keyLine = await publicKeyLineFrom(values.pubkey);
  else if (natsUrl !== undefined) throw new UsageError("release: with --nats, name the deployment's public key with --pubkey FILE|URL ({base}/minisign.pub)");
  else {
    const dataDir = resolve(values["data-dir"] ?? (process.env["DATA_DIR"] || ".data"));
    keyLine = await publicKeyLineOfSecret(resolve(values.key ?? (process.env["RELEASES_SIGNING_KEY"] || join(dataDir, "minisign.key"))));
  }
  const outDir = resolve(values.out ?? join(repoRoot, "dist", `mc-${releaseId}`));
  const notes = values.notes !== undefined ? await readFile(values.notes, "utf8") : undefined;
  process.stderr.write(`release: building mc ${releaseId} for linux-amd64 (single executable)...\n`);
  const built = await buildMcRelease({ releaseId, outDir, keyLine, ...(notes !== undefined ? { notes } : {}) });
  process.stderr.write(`release: wrote ${built.dir} (${built.packages.length} npm packages in the SBOMs)\n`);
  if (values["no-publish"]) return 0;
  const flags = [
    ...(values.nats !== undefined ? ["--nats", values.nats] : []),
    ...(values["data-dir"] !== undefined ? ["--data-dir", values["data-dir"]] : []),
    ...(values.store !== undefined ? ["--store", values.store] : []),
    ...(values.key !== undefined ? ["--key", values.key] : []),
    ...(values.offline ? ["--offline"] : []),
  ];
  const publish = spawn(process.execPath, [join(repoRoot, "services/releases/bin/releases.js"), "publish", "--product", "client", "--component", "mc", "--release", releaseId, "--from", built.dir, ...flags], { stdio: "inherit" });
  return new Promise((done) => publish.once("close", (code) => done(code ?? 1)));
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  // A usage mistake or a failed build: one line (a build's child output is in its message).
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${message.split("\n")[0] ?? message}\n`);
  process.exitCode = 1;
}
