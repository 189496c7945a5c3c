// `mc --version` without loading the commands and the S3 SDK: bin/mc.js runs
// this small bundle for `--version`/`-v` so the answer comes at node's start-up cost.
import { endOnClosedPipe } from "@mc/shared/closed-pipe";
import { versionText } from "./core/version.js";

endOnClosedPipe();
process.stdout.write(`${versionText()}\n`);
// Once everything is written, exit: a natural end first frees the heap and environment (as main.ts).
process.once("beforeExit", () => process.exit());
