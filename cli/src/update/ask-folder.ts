// The update notifier's one request (update-check.ts): loaded only when a
// check is due (scripts/build.mjs defers this file), so the commands of the
// other runs of the day load no HTTP or TLS module for it.
import { get as httpGet, type ClientRequest, type IncomingMessage } from "node:http";
import { get as httpsGet } from "node:https";
import { checksumName, platformFolder, userAgent } from "./release-folder.js";
import { parseChecksumFile, type ReleaseId } from "./release-id.js";

/** A folder that has not answered in this time is treated as unreachable until tomorrow. */
const requestTimeoutMs = 5000;

/** One GET of the checksum file; resolves the release it names, or undefined on any failure. */
export function askFolder(running: ReleaseId, env: NodeJS.ProcessEnv, onRequest: (req: ClientRequest, connected: () => boolean) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    const url = `${platformFolder(env)}/${checksumName()}`;
    const get = url.startsWith("https:") ? httpsGet : url.startsWith("http:") ? httpGet : undefined;
    if (!get) return resolve(undefined);
    let req: ClientRequest;
    try {
      req = get(url, { headers: { "user-agent": userAgent(running) }, timeout: requestTimeoutMs, agent: false }, (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          res.resume();
          return resolve(undefined);
        }
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          // A checksum line is short; anything big is not one.
          if (text.length > 4096) req.destroy();
        });
        res.on("end", () => {
          try {
            resolve(parseChecksumFile(text).release.id);
          } catch {
            resolve(undefined);
          }
        });
        res.on("error", () => resolve(undefined));
      });
    } catch {
      return resolve(undefined);
    }
    let connected = false;
    req.on("socket", (socket) => socket.once(url.startsWith("https:") ? "secureConnect" : "connect", () => (connected = true)));
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.on("close", () => resolve(undefined));
    onRequest(req, () => connected);
  });
}
