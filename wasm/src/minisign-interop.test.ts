import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  createMinisignKeyPair,
  encryptMinisignSecretKey,
  formatMinisignPublicKey,
  formatMinisignSecretKey,
  initCrypto,
  maxTrustedCommentBytes,
  minisignPublicKeyLine,
  parseMinisignPublicKey,
  parseMinisignSecretKey,
  signMinisign,
  verifyMinisign,
  type MinisignSecretKey,
} from "./index.js";
import { expectAppError } from "../testing/test-helpers.js";

/**
 * Interoperability with the real `minisign` (Debian package `minisign`,
 * 0.11 here) in both directions. The tool is the judge: every file crosses
 * through a temp directory exactly as a user would handle it.
 */
const tool = "minisign";

function run(args: readonly string[], input = ""): { status: number | null; output: string } {
  const child = spawnSync(tool, args, { input, encoding: "utf8", timeout: 60_000 });
  if (child.error !== undefined) throw new Error(`cannot run ${tool} (apt-get install minisign): ${child.error.message}`);
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

function flipLastByte(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 1;
  return copy;
}

function withTrustedComment(signatureFile: string, comment: string): string {
  const lines = signatureFile.split("\n");
  lines[2] = `trusted comment: ${comment}`;
  return lines.join("\n");
}

// ---
const Interop = suite("minisign :: real tool interop");
let dir = "";
let key: MinisignSecretKey;
// 300 KiB: more than one 64 KiB BLAKE2b slice.
const message = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 7) % 256));

Interop.before(async () => {
  await initCrypto();
  dir = await mkdtemp(join(tmpdir(), "mc-minisign-"));
  key = createMinisignKeyPair();
  assert.match(run(["-v"]).output, /^minisign \d/);
});

Interop.after(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

Interop("should have our signatures verified by minisign -V :: prehashed (also with -H) and legacy", async () => {
  const file = join(dir, "ours.bin");
  const pub = join(dir, "ours.pub");
  await writeFile(file, message);
  await writeFile(pub, formatMinisignPublicKey(key));
  await writeFile(`${file}.minisig`, signMinisign(key, message, { fileName: "ours.bin" }));
  const verified = run(["-V", "-H", "-m", file, "-p", pub]);
  assert.is(verified.status, 0, verified.output);
  assert.match(verified.output, /Trusted comment: timestamp:\d+\tfile:ours\.bin\thashed/);
  // The bare key line works as -P too.
  assert.is(run(["-V", "-m", file, "-P", minisignPublicKeyLine(key)]).status, 0);

  await writeFile(`${file}.minisig`, signMinisign(key, message, { legacy: true, trustedComment: "legacy one" }));
  const legacy = run(["-V", "-m", file, "-p", pub]);
  assert.is(legacy.status, 0, legacy.output);
  assert.match(legacy.output, /Trusted comment: legacy one/);
  assert.is.not(run(["-V", "-H", "-m", file, "-p", pub]).status, 0, "-H refuses legacy");
});

Interop("should fail minisign -V on our signature :: modified file, modified trusted comment", async () => {
  const file = join(dir, "tamper.bin");
  const pub = join(dir, "tamper.pub");
  await writeFile(pub, formatMinisignPublicKey(key));
  const signature = signMinisign(key, message, { trustedComment: "timestamp:1\tfile:tamper.bin\thashed" });
  await writeFile(`${file}.minisig`, signature);
  await writeFile(file, message);
  assert.is(run(["-V", "-m", file, "-p", pub]).status, 0);
  await writeFile(file, flipLastByte(message));
  assert.is.not(run(["-V", "-m", file, "-p", pub]).status, 0, "modified file");
  await writeFile(file, message);
  await writeFile(`${file}.minisig`, withTrustedComment(signature, "timestamp:2\tfile:tamper.bin\thashed"));
  const comment = run(["-V", "-m", file, "-p", pub]);
  assert.is.not(comment.status, 0, "modified trusted comment");
  assert.match(comment.output, /Comment signature verification failed/);
});

Interop("should verify minisign -S signatures with our code :: key from minisign -G -W", async () => {
  const pub = join(dir, "tool.pub");
  const sec = join(dir, "tool.key");
  const file = join(dir, "tool.bin");
  const generated = run(["-G", "-W", "-p", pub, "-s", sec]);
  assert.is(generated.status, 0, generated.output);
  await writeFile(file, message);
  const signed = run(["-S", "-s", sec, "-m", file, "-t", "tool says hi"]);
  assert.is(signed.status, 0, signed.output);
  const toolKey = parseMinisignPublicKey(await readFile(pub));
  const signature = await readFile(`${file}.minisig`, "utf8");
  const verified = verifyMinisign(toolKey, message, signature, { requirePrehashed: true });
  assert.is(verified.trustedComment, "tool says hi");
  assert.is(verified.prehashed, true);

  // Modified file, modified trusted comment: both refused.
  const bad = expectAppError(() => verifyMinisign(toolKey, flipLastByte(message), signature), "invalid_argument");
  assert.is(bad.details["minisign"], "bad_signature");
  const badComment = expectAppError(() => verifyMinisign(toolKey, message, withTrustedComment(signature, "tool says bye")), "invalid_argument");
  assert.is(badComment.details["minisign"], "bad_trusted_comment");

  // Legacy signatures from the tool (-l) verify too.
  assert.is(run(["-S", "-l", "-s", sec, "-m", file]).status, 0);
  assert.is(verifyMinisign(toolKey, message, await readFile(`${file}.minisig`)).prehashed, false);
});

Interop("should share secret key files with the tool :: tool's -W key signs for us, ours signs for the tool", async () => {
  // minisign -G -W key read by us (0.11 leaves its checksum zero).
  const toolPub = join(dir, "shared-tool.pub");
  const toolSec = join(dir, "shared-tool.key");
  assert.is(run(["-G", "-W", "-p", toolPub, "-s", toolSec]).status, 0);
  const toolKey = parseMinisignSecretKey(await readFile(toolSec));
  assert.equal(parseMinisignPublicKey(await readFile(toolPub, "utf8")).publicKey, toolKey.publicKey);
  const file = join(dir, "shared.bin");
  await writeFile(file, message);
  await writeFile(`${file}.minisig`, signMinisign(toolKey, message));
  assert.is(run(["-V", "-m", file, "-p", toolPub]).status, 0);

  // Our unencrypted key file used by minisign -S -W.
  const ours = createMinisignKeyPair();
  const ourSec = join(dir, "shared-ours.key");
  await writeFile(ourSec, formatMinisignSecretKey(ours), { mode: 0o600 });
  const signed = run(["-S", "-W", "-s", ourSec, "-m", file, "-t", "signed by the tool"]);
  assert.is(signed.status, 0, signed.output);
  assert.is(verifyMinisign(ours, message, await readFile(`${file}.minisig`)).trustedComment, "signed by the tool");
  // minisign -R recreates the same public key file from our secret key.
  const recreated = join(dir, "recreated.pub");
  assert.is(run(["-R", "-s", ourSec, "-p", recreated]).status, 0);
  assert.equal(parseMinisignPublicKey(await readFile(recreated)), { keyId: ours.keyId, publicKey: ours.publicKey });
});

Interop("should let the tool use our password-protected key :: password on stdin", async () => {
  const protectedKey = createMinisignKeyPair();
  const sec = join(dir, "encrypted.key");
  await writeFile(sec, await encryptMinisignSecretKey(protectedKey, "tool password", { opsLimit: 524_288, memLimit: 16_777_216 }), { mode: 0o600 });
  const file = join(dir, "encrypted.bin");
  await writeFile(file, message);
  assert.is.not(run(["-S", "-s", sec, "-m", file], "wrong password\n").status, 0);
  const signed = run(["-S", "-s", sec, "-m", file], "tool password\n");
  assert.is(signed.status, 0, signed.output);
  assert.ok(verifyMinisign(protectedKey, message, await readFile(`${file}.minisig`)).prehashed);
});

Interop("should stay within the tool's trusted comment buffer :: longest comment we allow", async () => {
  const file = join(dir, "long.bin");
  const pub = join(dir, "long.pub");
  await writeFile(file, message);
  await writeFile(pub, formatMinisignPublicKey(key));
  await writeFile(`${file}.minisig`, signMinisign(key, message, { trustedComment: "t".repeat(maxTrustedCommentBytes) }));
  const verified = run(["-V", "-m", file, "-p", pub]);
  assert.is(verified.status, 0, verified.output);
});

Interop.run();
