import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { constants, readFileSync } from "node:fs";
import { access, chmod, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { parseChecksumFile, parseReleaseId, isNewer } from "../update/release-id.js";
import { publisherKey, releaseTag, singleExecutable } from "../core/version.js";
import { checksumName, inDocker, platformFolder, userAgent } from "../update/release-folder.js";

/**
 * `mc update` (contracts/mc.md §9): the release folder from MC_UPDATE_URL,
 * `mc.sha256sum` for this platform, the archived build checked by SHA-256 and
 * always by minisign (the publisher key built into a release, or
 * MC_UPDATE_MINISIGN_PUBKEY instead; no key, no update); then an atomic replacement of
 * the running file that is rolled back unless the new file runs `--version`.
 * Exit 0 when already latest, 1 after an update or for a source checkout,
 * 255 on errors (exit-codes.ts).
 */
export class UpdateCommand extends BaseCommand {
  static override paths = [["update"]];
  static override usage = Command.Usage({
    category: "Other commands",
    description: "update mc to the latest release",
    details: "Reads the release folder of `MC_UPDATE_URL` (default the public release service). `--dry-run` downloads and verifies the new build without installing it (also in a source checkout).",
    examples: [
      ["Update mc to the latest release.", "$0 update"],
      ["Download and verify the latest release without installing it.", "$0 update --dry-run"],
      ["Update from your own release folder.", "MC_UPDATE_URL=http://127.0.0.1:8080/client/mc/release $0 update"],
    ],
  });
  dryRun = Option.Boolean("--dry-run", false, { description: "download and verify the new release, do not install it" });

  async run(ctx: McContext): Promise<number> {
    const platformDir = platformFolder();
    const running = parseReleaseId(releaseTag);
    const headers = { "user-agent": userAgent(running) };
    const get = async (url: string): Promise<Buffer> => {
      let res: Response;
      try {
        res = await fetch(url, { headers, signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(120_000)]) });
      } catch (err) {
        throw mcError(`Unable to reach the release server at \`${url}\`.`, err instanceof Error && err.cause instanceof Error ? err.cause : err);
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw mcError(`Unable to download \`${url}\`.`, new Error(`HTTP ${res.status} ${res.statusText}`));
      }
      return Buffer.from(await res.arrayBuffer());
    };

    // Steps 1–2: the checksum file names the versioned build.
    const sumName = checksumName();
    const sumUrl = `${platformDir}/${sumName}`;
    let latest;
    try {
      latest = parseChecksumFile((await get(sumUrl)).toString("utf8"));
    } catch (err) {
      if (err instanceof Error && err.name === "AppError") throw err;
      throw mcError(`Unable to parse \`${sumUrl}\`.`, err);
    }

    // Step 3: a source checkout has no release of its own to compare.
    if (!running && !this.dryRun) {
      ctx.output.error(
        mcError(
          `This mc runs from a source checkout (${releaseTag}) and cannot update itself; the latest release is ${latest.release.id}.`,
          new Error("Update the checkout with git, or install a release build, or use `mc update --dry-run` to check the release"),
        ),
        "fatal",
      );
      return 1;
    }
    if (running && !isNewer(latest.release, running)) {
      ctx.output.result({ status: "success", message: "You are already running the most recent version of ‘mc’." }, "You are already running the most recent version of ‘mc’.");
      return 0;
    }
    if (inDocker() && !this.dryRun) {
      const message = `docker pull minio/mc:${latest.release.id}`;
      ctx.output.result({ status: "success", message }, message);
      return 0;
    }

    // Steps 4–5: the archived build, its SHA-256 and (with a key) its signature.
    const archiveUrl = `${platformDir}/archive/mc.${latest.release.id}`;
    const build = await get(archiveUrl);
    const sha = createHash("sha256").update(build).digest("hex");
    if (sha !== latest.sha256) {
      throw mcError(`The download of ${latest.release.id} is corrupt: its SHA-256 does not match \`${sumName}\`.`, new Error(`expected ${latest.sha256}, got ${sha}`));
    }
    // Always signed: the key built into a release, or the one MC_UPDATE_MINISIGN_PUBKEY names instead.
    const override = process.env["MC_UPDATE_MINISIGN_PUBKEY"];
    const keySetting = override || publisherKey();
    if (!keySetting) {
      throw mcError(
        `Refusing ${latest.release.id}: this mc carries no publisher key to verify its signature.`,
        new Error("Set MC_UPDATE_MINISIGN_PUBKEY to the publisher's minisign public key (text or file)"),
      );
    }
    const keyName = override ? "MC_UPDATE_MINISIGN_PUBKEY" : "the publisher key built into mc";
    await verifySignature(keySetting, keyName, build, await get(`${archiveUrl}.minisig`), latest.release.id);

    if (this.dryRun) {
      const message = `mc can be updated to version ${latest.release.id} (SHA-256 and minisign signature verified; --dry-run installs nothing).`;
      ctx.output.result({ status: "success", message }, message);
      return 0;
    }

    // Step 6: replace the running file atomically, roll back unless the new one runs.
    await replaceRunning(build, latest.release.id);
    const message = `mc updated to version ${latest.release.id} successfully.`;
    ctx.output.result({ status: "success", message }, message);
    return 1;
  }
}

async function verifySignature(keySetting: string, keyName: string, build: Buffer, signature: Buffer, id: string): Promise<void> {
  let keyText = keySetting;
  if (!keySetting.trim().startsWith("untrusted comment:") && !/^[A-Za-z0-9+/]{50,}={0,2}$/.test(keySetting.trim())) {
    try {
      keyText = readFileSync(keySetting, "utf8");
    } catch (err) {
      throw mcError("MC_UPDATE_MINISIGN_PUBKEY is neither a minisign public key nor a readable key file.", err);
    }
  }
  const minisign = await import("../update/minisign-lib.js");
  await minisign.initCrypto();
  let key;
  try {
    key = minisign.parseMinisignPublicKey(keyText);
  } catch (err) {
    throw mcError(`${keyName} is not a valid minisign public key.`, err);
  }
  try {
    minisign.verifyMinisign(key, new Uint8Array(build), new Uint8Array(signature));
  } catch (err) {
    throw mcError(`The signature of ${id} does not verify against ${keyName}.`, err);
  }
}

/** The running file: the single executable itself, or the script node started (a release bundle is one file). */
async function runningFile(): Promise<string> {
  const file = singleExecutable ? process.execPath : process.argv[1];
  if (file === undefined) throw mcError("Unable to find the running mc file.");
  return realpath(file);
}

async function replaceRunning(build: Buffer, id: string): Promise<void> {
  const target = await runningFile();
  const dir = dirname(target);
  try {
    await access(dir, constants.W_OK);
    await access(target, constants.W_OK);
  } catch (err) {
    throw mcError(`No permission to replace \`${target}\`.`, err);
  }
  const mode = (await stat(target)).mode & 0o7777;
  const temp = join(dir, `.${basename(target)}.update-${process.pid}`);
  const backup = join(dir, `.${basename(target)}.old-${process.pid}`);
  try {
    await writeFile(temp, build, { mode });
    await chmod(temp, mode);
  } catch (err) {
    await rm(temp, { force: true });
    throw mcError(`Unable to write the new mc beside \`${target}\`.`, err);
  }
  // Keep the old file (a hard copy by rename) until the new one answers --version.
  await rename(target, backup);
  try {
    await rename(temp, target);
  } catch (err) {
    await rename(backup, target);
    await rm(temp, { force: true });
    throw mcError(`Unable to replace \`${target}\`; the old version was kept.`, err);
  }
  let version = "";
  try {
    // A single executable runs by itself; a bundle needs this node.
    const args = singleExecutable ? ["--version"] : [target, "--version"];
    const { stdout } = await promisify(execFile)(singleExecutable ? target : process.execPath, args, { timeout: 60_000 });
    version = stdout;
  } catch (err) {
    version = `failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (!version.startsWith(`mc version ${id} `)) {
    await rename(backup, target);
    throw mcError(`The new mc ${id} does not run; the old version was kept.`, new Error(version.trim().split("\n")[0] ?? "no output"));
  }
  await rm(backup, { force: true });
}
