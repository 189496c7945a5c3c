// Composition root of the KMS command: parses the command line and runs it.
// Startup failures print exactly their one line to stderr and exit 1.
import { runCli } from "./cli/commands.js";
import { StartupError } from "./config/startup-error.js";
import { endOnClosedPipe } from "@mc/shared/closed-pipe";

// A closed stdout (`kms apikey new | head -c 8`) ends quietly with 141, as a program killed by SIGPIPE.
endOnClosedPipe();

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (err) {
  // One line, never a stack: the message says what to fix.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${err instanceof StartupError || message.startsWith("kms: ") ? message : `kms: ${message}`}\n`);
  process.exitCode = 1;
}
// Anything still pending after a failed start must not keep the process alive.
if (process.exitCode !== 0) process.exit(process.exitCode);
