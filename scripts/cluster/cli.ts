// `npm run cluster -- up|status|down|env`: compose.yaml's topology as local
// processes on loopback, for machines without Docker (docs/operations.md).
import { endOnClosedPipe } from "@mc/shared/closed-pipe";
import { runProgram } from "@mc/shared/program";
import { clusterProgram } from "./program.js";

// A closed stdout (`npm run cluster -- up | head -2`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe({ program: "cluster" });

process.exitCode = await runProgram(clusterProgram, process.argv.slice(2));
