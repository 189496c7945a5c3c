// Before `npm start` and `npm test` (package.json pre-scripts): builds the
// cached mc single executable the embedded default and the cluster launcher
// publish (seed-mc.ts), so no gateway start waits for it. Never fails the
// command it precedes: a checkout that cannot build says so in one line and
// keeps the sample bytes.
import { canBuild } from "./mc-release.js";
import { cachedMcRelease } from "./seed-mc.js";

const say = (line: string): void => void process.stderr.write(`${line}\n`);
const why = canBuild();
if (process.env["MC_SEED_MC"] === "off") say("mc: MC_SEED_MC=off, no single executable is built");
else if (why !== undefined) say(`mc: no single executable (${why}); client/mc keeps the sample bytes`);
else {
  try {
    await cachedMcRelease(say);
  } catch (err) {
    say(`mc: the single executable did not build (${(err instanceof Error ? err.message : String(err)).split("\n")[0]}); client/mc keeps the sample bytes`);
  }
}
