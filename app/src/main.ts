// Composition root of the `gateway` program (and of `npm start`): the only
// place that starts I/O, and the only one that knows every service. With
// --nats it is one gateway of a distributed deployment. Without it is the
// embedded default: the release service and a single-node KMS run in this
// process too, joined by the in-process bus, on state in the data folder.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { connectNatsBus, createMemoryBroker, type Bus } from "@mc/shared/bus";
import { createLogger } from "@mc/shared/node";
import { isAppError } from "@mc/shared/errors";
import { createCatalogEvents, openReleaseStore, publishSampleCatalog, removeServingMarker, serveReleases, writeServingMarker, type CatalogEvents, type ReleaseStore } from "@mc/releases";
import { createBusHealth, createGateway, parseGatewayConfig, usage } from "@mc/gateway";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";

const log = createLogger("gateway");

interface RealMcSeed {
  publishRealMc(o: { store: ReleaseStore; keyFile: string; events: CatalogEvents; log: (line: string) => void }): Promise<string>;
}

/**
 * The checkout's real mc as the newest client/mc release (issue 23), from
 * scripts/release/ beside a source checkout; an installation without it (or
 * MC_SEED_MC=off) keeps the sample bytes. Loaded by path at run time: the
 * seeder is build tooling of the repository, no package the gateway ships.
 */
async function seedRealMc(o: Parameters<RealMcSeed["publishRealMc"]>[0]): Promise<string> {
  if (process.env["MC_SEED_MC"] === "off") return "mc: MC_SEED_MC=off, client/mc keeps the sample bytes";
  let seeder: RealMcSeed;
  try {
    seeder = (await import(new URL("../../scripts/release/seed-mc.ts", import.meta.url).href)) as RealMcSeed;
  } catch {
    return "mc: no scripts/release/ beside this gateway (not a source checkout), client/mc keeps the sample bytes";
  }
  try {
    return await seeder.publishRealMc(o);
  } catch (err) {
    return `mc: the real mc was not published (${err instanceof Error ? err.message.split("\n")[0] : String(err)}), client/mc keeps the sample bytes`;
  }
}

function fail(message: string): never {
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(1);
}

// A closed stdout (`gateway | head -1`) ends the gateway quietly with 141, as a program killed by SIGPIPE;
// a failing one (a full disk) in one line.
endOnClosedPipe();

let config;
try {
  config = parseGatewayConfig(process.argv.slice(2), process.env);
} catch (err) {
  fail(`${isAppError(err) ? err.message : "bad arguments"}\n\n${usage}`);
}
if (config.help) {
  // Exit once written: exiting right after write() would report 0 for a closed stdout. A failed
  // write is the 'error' listener's to end (141 for a closed pipe, one line for a full disk).
  await new Promise<void>((done) => process.stdout.write(usage, (err) => (err ? undefined : done())));
  process.exit(0);
}

let store;
try {
  store = await openReleaseStore(config.storeSpec, process.env);
} catch (err) {
  fail(`cannot open the release store ${config.storeSpec}: ${err instanceof Error ? err.message : String(err)}`);
}
let bus: Bus;
const closers: Array<() => void> = [];
const banner: string[] = [];
if (config.natsUrl) {
  try {
    bus = await connectNatsBus({ servers: config.natsUrl.split(","), name: "gateway" });
  } catch (err) {
    fail(`cannot reach NATS at ${config.natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
} else {
  await mkdir(config.dataDir, { recursive: true });
  if (config.kms) {
    // Loaded only here: the distributed gateway has no KMS in it.
    const { startEmbeddedKms } = await import("@mc/kms");
    try {
      const kms = await startEmbeddedKms({ dataDir: join(config.dataDir, "kms"), host: config.kms.host, port: config.kms.port, log: (line) => log.info(line) });
      closers.push(() => void kms.close());
      banner.push(`  kms:      https://${kms.host}:${kms.port} (single node; CA ${kms.caFile}; HSM key ${kms.hsmKeyFile})`);
      // The root API key goes to the terminal (stderr, contract §2) once, on the first start, never to stdout or the log.
      if (kms.firstStart) process.stderr.write(`kms root API key (shown once, keep it): ${kms.rootApiKey}\n`);
    } catch (err) {
      fail(`cannot start the embedded KMS on ${config.kms.host}:${config.kms.port}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const broker = createMemoryBroker();
  bus = broker.connect();
  const releasesBus = broker.connect();
  const keyFile = join(config.dataDir, "minisign.key");
  const releases = await serveReleases({ bus: releasesBus, store, base: config.baseUrl, log: log.child({ service: "releases" }), keyFile });
  closers.push(() => releases.close());
  const published = await publishSampleCatalog(store, keyFile, createCatalogEvents(releasesBus));
  const realMc = await seedRealMc({ store, keyFile, events: createCatalogEvents(releasesBus), log: (line) => log.info(line) });
  log.info(realMc);
  banner.push(`  state:    ${config.dataDir}`, `  store:    ${config.storeSpec} (${published} sample releases published now)`, `  signing:  ${keyFile} (mode 0600)`, `  ${realMc}`);
}

const busHealth = createBusHealth(bus);
const gateway = createGateway({
  bus,
  busHealth,
  busName: config.natsUrl ?? "in-process",
  store,
  base: config.baseUrl,
  startedAt: new Date(),
  onError: (err) => log.error({ err }, "request failed"),
  log,
});
gateway.server.on("error", (err: NodeJS.ErrnoException) => {
  const why = err.code === "EADDRINUSE" ? "address already in use" : err.code === "EACCES" ? "permission denied" : err.message;
  fail(`cannot listen on ${config.host}:${config.port}: ${why}`);
});
gateway.server.listen(config.port, config.host, () => {
  const base = config.baseUrl;
  // `releases publish` (no --nats) publishes into this data folder only while this process serves it.
  if (!config.natsUrl) {
    const dataDir = config.dataDir;
    void writeServingMarker(dataDir, { pid: process.pid, base }).catch((err: unknown) => log.warn({ err }, "cannot write the serving marker"));
    closers.push(() => removeServingMarker(dataDir));
  }
  log.info({ base, bus: config.natsUrl ?? "in-process" }, "gateway ready");
  process.stdout.write(
    [
      `gateway ready on ${base} (bus: ${config.natsUrl ?? "in-process"})`,
      ...banner,
      // The pages first: they are where a person starts (every other URL is linked from them).
      `  pages:    ${base}/   ${base}/client/releases   ${base}/server/releases`,
      `  health:   ${base}/healthz`,
      `  releases: ${base}/api/releases/client   ${base}/api/releases/server/latest`,
      `  feeds:    ${base}/api/feeds/client.json   ${base}/feed-client.rss`,
      `  files:    ${base}/client/mc/release/   ${base}/client/mc/release/linux-amd64/mc   ${base}/client/mc/release/notes/`,
      "",
    ].join("\n"),
  );
});

function shutdown(signal: NodeJS.Signals): void {
  log.info({ signal }, "shutting down");
  gateway.close();
  busHealth.close();
  for (const close of closers) close();
  void bus.close().then(() => process.exit(0));
}
process.once("SIGINT", () => shutdown("SIGINT"));
process.once("SIGTERM", () => shutdown("SIGTERM"));
