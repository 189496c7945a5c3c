// `node --import ./tests/harness/uvu-format.mjs`: registers the hooks that keep
// uvu from hiding failures whose error has a non-string `details`.
import { register } from "node:module";

register("./uvu-format-hooks.mjs", import.meta.url);
