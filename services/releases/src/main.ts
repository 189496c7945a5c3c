// Composition root of the release service CLI: the only place that starts I/O.
import { endOnClosedPipe } from "@mc/shared/closed-pipe";
import { failureText, runProgram } from "@mc/shared/program";
import { releasesProgram } from "./cli/program.js";

// A closed stdout (`releases sbom … | head -1`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe();
// Whatever escapes a command's own catch (a listener's error while serving, a failed stream
// write): one line and exit 1, like every other failure, never Node's stack.
const crash = (err: unknown): void => {
  process.stderr.write(failureText(releasesProgram, err));
  process.exit(1);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

const code = await runProgram(releasesProgram, process.argv.slice(2));
// A failure, or a server that has drained: nothing pending may keep the process alive.
if (code !== 0 || process.argv[2] === "serve") process.exit(code);
