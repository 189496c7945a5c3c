// Writing an object and waiting until a listing shows it.
import * as assert from "uvu/assert";
import { jsonLines, type McFixture } from "./mc-runner.js";

/**
 * `mc pipe TARGET` with BODY, then the new version id (empty in an unversioned
 * bucket). The id comes from a HEAD, which is consistent at once. RGW completes
 * a bucket-index entry asynchronously after answering the PUT, so under load a
 * listing can miss a fresh version for a moment; commands that find objects by
 * listing (-r, --versions, undo) would then act on an older state. Waiting for
 * the listing keeps those tests about mc, not about RGW's index timing.
 */
export async function putListed(mc: McFixture["mc"], target: string, body: string): Promise<string> {
  const r = await mc(["pipe", target], { input: body });
  assert.is(r.code, 0, r.stderr);
  const stat = await mc(["stat", "--json", target]);
  assert.is(stat.code, 0, stat.stderr + stat.stdout);
  const vid = String(jsonLines(stat.stdout)[0]?.["versionID"] ?? "");
  for (let i = 0; i < 50; i++) {
    const ls = jsonLines((await mc(["ls", "--versions", "--json", target])).stdout);
    if (ls.some((e) => vid === "" || e["versionId"] === vid)) return vid;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.unreachable(`${target} version ${vid} never appeared in a listing`);
  return vid;
}
