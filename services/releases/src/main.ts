// Composition root of the release service CLI: the only place that starts I/O.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectNatsBus, createLogger, isAppError, type Bus } from "@mc/shared";
import { initCrypto } from "@mc/wasm";
import { createCatalogEvents } from "./adapters/catalog-events.js";
import { openReleaseStore } from "./adapters/open-store.js";
import { loadMinisignSigner } from "./adapters/minisign-signer.js";
import { runPublish } from "./adapters/publish-command.js";
import { runSbom, sbomUsage } from "./adapters/sbom-command.js";
import { serveReleases } from "./adapters/serve-releases.js";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";

const usage = `Usage: releases <command> [options]

Release download service: publishes releases into the store and serves the
catalog to gateways over NATS.

Commands:
  publish   --product P --component C [--release ID] --from DIR [--store DIR] [--key FILE] [--nats URL]
            validate, hash, sign and publish a release directory:
              DIR/<os>-<arch>/<component>[.exe], release-notes-<id>.md,
              sbom-<id>.cyclonedx.json, sbom-<id>.spdx.json, gomod-<id>.txt
            (the id is read from the document names when --release is absent)
  sbom      --from gomod.txt --licenses licenses.json --component C --release ID [--out DIR]
            write both SBOMs from a Go modules list and a JSON map of module path ->
            SPDX license id or expression (format: releases sbom --help)
  keygen    [--key FILE]       create the release signing key (mode 0600), print its public key
  serve     --nats URL --store DIR --base-url URL
            serve ReleaseService on NATS (instances share the load)

--store is a directory or s3://bucket[/prefix] (with RELEASES_S3_ENDPOINT,
RELEASES_S3_ACCESS_KEY, RELEASES_S3_SECRET_KEY, RELEASES_S3_REGION).
Defaults: --store $RELEASES_STORE or .data/releases, --key $RELEASES_SIGNING_KEY
or .data/minisign.key, --nats $NATS_URL.
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
const storeSpec = str("store") ?? process.env.RELEASES_STORE ?? ".data/releases";
const keyFile = resolve(str("key") ?? process.env.RELEASES_SIGNING_KEY ?? ".data/minisign.key");
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
      const bus = await connect();
      const releaseId = str("release");
      const result = await runPublish({
        store: await openReleaseStore(storeSpec, process.env),
        keyFile,
        product: need("product"),
        component: need("component"),
        from: resolve(need("from")),
        ...(releaseId ? { releaseId } : {}),
        ...(bus ? { events: createCatalogEvents(bus) } : {}),
      });
      for (const w of result.warnings) process.stderr.write(`releases: warning: ${w}\n`);
      const e = result.entry;
      process.stdout.write(
        result.unchanged
          ? `${e.product}/${e.component} ${e.releaseId} is already published with these bytes: nothing to do\n`
          : `published ${e.product}/${e.component} ${e.releaseId} (${e.platforms.length} platforms)${result.latestChanged ? ", now latest" : ""}\n`,
      );
      if (!bus && !result.unchanged) process.stdout.write("no --nats given: gateways pick the release up when their cache expires (5 minutes)\n");
      await bus?.close();
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
    case "serve": {
      const baseUrl = needHttpUrl("base-url");
      const bus = await connect();
      if (!bus) fail("serve: --nats is required");
      const server = await serveReleases({ bus, store: await openReleaseStore(storeSpec, process.env), base: baseUrl, log });
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
