// Composition root of the KMS command: parses the command line and runs it.
// Startup failures print exactly their one line to stderr and exit 1.
import { endOnClosedPipe } from "@mc/shared/closed-pipe";
import { runProgram } from "@mc/shared/program";
import { kmsProgram } from "./cli/program.js";

// A closed stdout (`kms apikey new | head -c 8`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe();

process.exitCode = await runProgram(kmsProgram, process.argv.slice(2));
// Anything still pending after a failed start must not keep the process alive.
if (process.exitCode !== 0) process.exit(process.exitCode);
