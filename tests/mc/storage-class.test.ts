// Storage classes as the server reports them (issue 16): RGW with a second
// class, COLD, on its default placement; botocore is the witness.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines, startMcFixture } from "./mc-runner.js";
import { startWitness } from "./s3-witness.js";

const fx = await startMcFixture({ storageClasses: ["COLD"] });
const { mc, work } = fx;
const w = startWitness(fx.rgw);

const classes = suite("storage class in ls, stat and mirror");

classes.before(async () => {
  assert.is((await mc(["mb", "rgw/cls"])).code, 0);
  await writeFile(join(work, "f.txt"), "data");
  assert.is((await mc(["cp", "--storage-class", "COLD", join(work, "f.txt"), "rgw/cls/cold 1.txt"])).code, 0);
  assert.is((await mc(["cp", join(work, "f.txt"), "rgw/cls/warm.txt"])).code, 0);
  assert.equal(
    (await w.list("cls")).map((o) => [o.key, o.storageClass]),
    [
      ["cold 1.txt", "COLD"],
      ["warm.txt", "STANDARD"],
    ],
  );
});

classes("should show the listed class :: ls text and json", async () => {
  const json = jsonLines((await mc(["ls", "--json", "rgw/cls/"])).stdout);
  assert.equal(json.map((o) => [o["key"], o["storageClass"]]), [["cold 1.txt", "COLD"], ["warm.txt", "STANDARD"]]);
  const text = await mc(["ls", "rgw/cls/"]);
  assert.match(text.stdout, /\s4B COLD cold 1\.txt\n.*\s4B STANDARD warm\.txt\n$/s);
  const tree = jsonLines((await mc(["tree", "--json", "rgw/cls/"])).stdout);
  assert.equal(tree.map((o) => o["storageClass"]), ["COLD", "STANDARD"]);
});

classes("should list only the objects of one class :: ls --storage-class", async () => {
  const cold = jsonLines((await mc(["ls", "-r", "--json", "--storage-class", "cold", "rgw/cls/"])).stdout);
  assert.equal(cold.map((o) => [o["key"], o["storageClass"]]), (await w.list("cls")).filter((o) => o.storageClass === "COLD").map((o) => [o.key, o.storageClass]));
  const text = await mc(["ls", "--sc", "STANDARD", "rgw/cls/"]);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /^\[[^\]]+\]\s+4B STANDARD warm\.txt\n$/);
  assert.is((await mc(["ls", "--storage-class", "GLACIER", "rgw/cls/"])).stdout, "");
});

classes("should show the class the server answers :: stat", async () => {
  const json = jsonLines((await mc(["stat", "--json", "rgw/cls/cold 1.txt"])).stdout)[0] ?? {};
  assert.is((json["metadata"] as Record<string, string>)["X-Amz-Storage-Class"], "COLD");
  const text = await mc(["stat", "rgw/cls/cold 1.txt"]);
  assert.match(text.stdout, "  X-Amz-Storage-Class: COLD \n");
});

classes("should leave out the excluded class :: mirror --exclude-storageclass", async () => {
  assert.is((await mc(["mb", "rgw/cls-copy"])).code, 0);
  const r = await mc(["mirror", "--exclude-storageclass", "COLD", "rgw/cls", "rgw/cls-copy"]);
  assert.is(r.code, 0, r.stderr);
  assert.equal((await w.list("cls-copy")).map((o) => o.key), ["warm.txt"]);
});

classes.after(async () => {
  w.close();
  await fx.stop();
});

classes.run();
