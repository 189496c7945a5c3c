import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFsReleaseStore } from "@mc/releases";
import { defineStoreSuite } from "./store-suite.js";

let root = "";
defineStoreSuite("release store on a directory tree", {
  async setup() {
    root = await mkdtemp(join(tmpdir(), "store-fs-"));
    return createFsReleaseStore(join(root, "store"));
  },
  teardown: () => rm(root, { recursive: true, force: true }),
});
