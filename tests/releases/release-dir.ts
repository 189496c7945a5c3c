import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runSbom } from "@mc/releases";

export interface ReleaseDirOptions {
  readonly component: string;
  readonly releaseId: string;
  readonly platforms?: readonly string[];
  readonly notes?: string;
  /** Seed of the binaries' bytes: change it to make "different bytes". */
  readonly seed?: string;
}

export const licenses = { "example.com/main": "Apache-2.0", "github.com/a/lib": "MIT", "github.com/b/other": "BSD-3-Clause" };
export const goModules = "example.com/main\ngithub.com/a/lib v1.2.3\ngithub.com/b/other v0.4.0\n";

/** A release directory as `releases publish --from` takes it, SBOMs made by `releases sbom`. */
export async function makeReleaseDir(dir: string, options: ReleaseDirOptions): Promise<string> {
  const { component, releaseId } = options;
  for (const platform of options.platforms ?? ["linux-amd64", "linux-arm64", "windows-amd64"]) {
    await mkdir(join(dir, platform), { recursive: true });
    const name = platform.startsWith("windows-") ? `${component}.exe` : component;
    await writeFile(join(dir, platform, name), `#!/bin/sh\necho ${component} ${releaseId} ${platform} ${options.seed ?? ""}\n`.repeat(64));
  }
  await writeFile(join(dir, `release-notes-${releaseId}.md`), options.notes ?? `# ${component} ${releaseId}\n\nBug fixes and speed-ups.\n`);
  await writeFile(join(dir, `gomod-${releaseId}.txt`), goModules);
  await writeFile(join(dir, "licenses.json"), JSON.stringify(licenses));
  await runSbom({ from: join(dir, `gomod-${releaseId}.txt`), licenses: join(dir, "licenses.json"), component, releaseId });
  await rm(join(dir, "licenses.json"));
  return dir;
}
