import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfigDir, homeDir, type Platform } from "./home-dir.js";

const win = (env: Record<string, string>): Platform => ({ os: "win32", env, argv0: "C:\\bin\\mc.exe" });

const home = suite("home directory (go-homedir order behind the platform seam)");

home("should prefer HOME on Windows", () => {
  assert.is(homeDir(win({ HOME: "C:\\h", USERPROFILE: "C:\\u", HOMEDRIVE: "D:", HOMEPATH: "\\p" })), "C:\\h");
});

home("should fall back to USERPROFILE, then HOMEDRIVE+HOMEPATH", () => {
  assert.is(homeDir(win({ HOME: "", USERPROFILE: "C:\\u", HOMEDRIVE: "D:", HOMEPATH: "\\p" })), "C:\\u");
  assert.is(homeDir(win({ HOMEDRIVE: "D:", HOMEPATH: "\\p" })), "D:\\p");
});

home("should fail when only one of HOMEDRIVE and HOMEPATH is set :: go-homedir text", () => {
  assert.throws(() => homeDir(win({ HOMEDRIVE: "D:" })), (err: Error) => err.message === "Unable to get mcConfigDir." && (err.cause as Error).message === "HOMEDRIVE, HOMEPATH, or USERPROFILE are blank");
  assert.throws(() => homeDir(win({})), /mcConfigDir/);
});

home("should use <home>\\mc\\ on Windows and ~/.mc on Unix", () => {
  assert.is(defaultConfigDir(win({ USERPROFILE: "C:\\Users\\a" })), "C:\\Users\\a\\mc\\");
  assert.is(defaultConfigDir({ os: "linux", env: { HOME: "/home/a" }, argv0: "/usr/bin/mc" }), "/home/a/.mc");
});

home.run();
