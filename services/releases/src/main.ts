// Composition root of the release service CLI: the only place that starts I/O.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectNatsBus, type Bus } from "@mc/shared/bus";
import { createLogger } from "@mc/shared/node";
import { isAppError } from "@mc/shared/errors";
import { initCrypto } from "@mc/wasm";
import { openReleaseStore } from "./adapters/open-store.js";
import { loadMinisignSigner } from "./adapters/minisign-signer.js";
import { publishFromCli } from "./adapters/publish-cli.js";
import { choosePublishTarget } from "./adapters/publish-target.js";
import { publishSampleCatalog } from "./adapters/sample-catalog.js";
import { runSbom, sbomUsage } from "./adapters/sbom-command.js";
import { serveReleases } from "./adapters/serve-releases.js";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";

const usage = `Usage: releases <command> [options]

Release download service: publishes releases into a deployment and serves the
catalog to gateways over NATS.

Commands:
  publish   --product P --component C [--release ID] --from DIR [--new-product] TARGET
            validate, hash, sign and publish a release directory:
              DIR/<os>-<arch>/<component>[.exe], release-notes-<id>.md,
              sbom-<id>.cyclonedx.json, sbom-<id>.spdx.json, gomod-<id>.txt
            (the id is read from the document names when --release is absent).
            TARGET names the deployment once:
              --nats URL        a running deployment: its release service reads DIR,
                                signs with its own key and writes its own store
              (none)            the embedded default in --data-dir / $DATA_DIR / .data,
                                which \`npm start\` must be serving
              --offline [--store DIR|s3://B] [--key FILE]
                                write into a store no running service serves
            An unknown product is refused unless --new-product. Live on every
            gateway of the deployment within 2 s.
  sbom      --from gomod.txt --licenses licenses.json --component C --release ID [--out DIR]
            write both SBOMs from a Go modules list and a JSON map of module path ->
            SPDX license id or expression (format: releases sbom --help)
  keygen    [--key FILE]       create the release signing key (mode 0600), print its public key
  init      --store DIR --key FILE
            create the signing key if missing and publish the sample catalog of the
            embedded default into the store (the cluster launcher and compose run it)
  serve     --nats URL --store DIR --base-url URL [--key FILE]
            serve ReleaseService (and, with --key, publishing) on NATS; instances
            share the load and announce every catalog change, whoever made it

--store is a directory or s3://bucket[/prefix] (with RELEASES_S3_ENDPOINT,
RELEASES_S3_ACCESS_KEY, RELEASES_S3_SECRET_KEY, RELEASES_S3_REGION).
Defaults: --data-dir $DATA_DIR or .data; --store $RELEASES_STORE or
DATA_DIR/releases; --key $RELEASES_SIGNING_KEY or DATA_DIR/minisign.key;
--nats $NATS_URL.
`;

const log = createLogger("releases");

// A closed stdout (`releases sbom … | head -1`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe();
// Whatever escapes a command's own catch (a listener's error while serving, a failed stream
// write): one line and exit 1, like every other failure, never Node's stack.
process.on("uncaughtException", (err) => fail(oneLine(err)));
process.on("unhandledRejection", (err) => fail(oneLine(err)));

function fail(message: string, code = 1): never {
  process.stderr.write(`releases: ${message}\n`);
  process.exit(code);
}

/** Exits once the text is written: exiting right after write() would hide a closed stdout behind `code`. */
async function printAndExit(text: string, code: number): Promise<never> {
  await new Promise<void>((done) => process.stdout.write(text, (err) => (err ? process.exit(141) : done())));
  process.exit(code);
}

/** A file-system failure as one line: "not a directory, open '/x/y'" rather than a stack. */
function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0]?.replace(/^E[A-Z]+: /, "") ?? message;
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === "-h" || command === "--help" || command === "help") {
  await printAndExit(usage, command === undefined ? 1 : 0);
}

let values: Record<string, string | boolean | undefined>;
try {
  values = parseArgs({
    args: rest,
    options: {
      product: { type: "string" },
      component: { type: "string" },
      release: { type: "string" },
      from: { type: "string" },
      store: { type: "string" },
      key: { type: "string" },
      nats: { type: "string" },
      "data-dir": { type: "string" },
      offline: { type: "boolean" },
      "new-product": { type: "boolean" },
      licenses: { type: "string" },
      out: { type: "string" },
      "base-url": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (err) {
  fail(`${err instanceof Error ? err.message : "bad arguments"}\n\n${usage}`);
}
if (values.help) await printAndExit(command === "sbom" ? sbomUsage : usage, 0);

const str = (name: string): string | undefined => (typeof values[name] === "string" ? (values[name] as string) : undefined);
function need(name: string): string {
  const v = str(name);
  if (v === undefined || v === "") fail(`${command}: --${name} is required\n\n${usage}`);
  return v;
}
// DATA_DIR is honoured as everywhere else: nothing is read from or left in ./.data when it names another folder.
const dataDir = resolve(str("data-dir") ?? (process.env.DATA_DIR || ".data"));
const storeSpec = str("store") ?? (process.env.RELEASES_STORE || resolve(dataDir, "releases"));
const keyFile = resolve(str("key") ?? (process.env.RELEASES_SIGNING_KEY || resolve(dataDir, "minisign.key")));
const natsUrl = str("nats") ?? process.env.NATS_URL;

/** A folder the command writes into must exist: say so before any work, with the flag that named it. */
async function needFolder(flag: string, dir: string): Promise<void> {
  const found = await stat(dir).catch((err: unknown) => fail(`${command}: ${flag} ${dir}: ${oneLine(err)}`));
  if (!found.isDirectory()) fail(`${command}: ${flag} ${dir}: not a directory`);
}

function needHttpUrl(flag: string): string {
  const url = need(flag).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url)) fail(`${command}: --${flag} must be an http(s) URL, got '${url}'`);
  return url;
}

async function connect(): Promise<Bus | undefined> {
  if (!natsUrl) return undefined;
  try {
    return await connectNatsBus({ servers: natsUrl.split(","), name: `releases-${command}` });
  } catch (err) {
    return fail(`cannot reach NATS at ${natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

try {
  switch (command) {
    case "publish": {
      const request = { product: need("product"), component: need("component"), releaseId: str("release"), from: need("from"), newProduct: values["new-product"] === true };
      const target = await choosePublishTarget({ nats: str("nats"), dataDir: str("data-dir"), store: str("store"), key: str("key"), offline: values.offline === true }, process.env);
      const result = await publishFromCli(target, request);
      for (const w of result.warnings) process.stderr.write(`releases: warning: ${w}\n`);
      process.stdout.write(`${result.lines.join("\n")}\n`);
      break;
    }
    case "sbom": {
      const out = str("out");
      if (out !== undefined) await needFolder("--out", out);
      const written = await runSbom({ from: need("from"), licenses: need("licenses"), component: need("component"), releaseId: need("release"), ...(out ? { outDir: out } : {}), warn: (line) => process.stderr.write(`releases: warning: ${line}\n`) });
      process.stdout.write(`${written.join("\n")}\n`);
      break;
    }
    case "keygen": {
      await initCrypto();
      const signer = await loadMinisignSigner(keyFile, { create: true });
      process.stdout.write(`signing key: ${keyFile}\n${signer.publicKeyFile()}`);
      break;
    }
    case "init": {
      if (str("store") === undefined || str("key") === undefined) fail("init: --store and --key are required");
      const published = await publishSampleCatalog(await openReleaseStore(storeSpec, process.env), keyFile);
      process.stdout.write(`signing key: ${keyFile}\nsample catalog: ${published} releases published into ${storeSpec}\n`);
      break;
    }
    case "serve": {
      const baseUrl = needHttpUrl("base-url");
      const bus = await connect();
      if (!bus) fail("serve: --nats is required");
      const key = str("key") ?? (process.env.RELEASES_SIGNING_KEY || undefined);
      const server = await serveReleases({ bus, store: await openReleaseStore(storeSpec, process.env), base: baseUrl, log, ...(key ? { keyFile: resolve(key) } : {}) });
      log.info({ nats: natsUrl, store: storeSpec, base: baseUrl }, "releases ready");
      process.stdout.write(`releases ready (nats ${natsUrl}, store ${storeSpec})\n`);
      const stop = async (signal: string): Promise<void> => {
        log.info({ signal }, "draining");
        await server.drain();
        await bus.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
      break;
    }
    default:
      fail(`unknown command '${command}'\n\n${usage}`);
  }
} catch (err) {
  if (isAppError(err) && err.reason !== "internal") fail(err.message);
  // Anything else (a file that cannot be written, a store that cannot be reached): its one line, never a stack.
  fail(`${command}: ${oneLine(err)}`);
}
