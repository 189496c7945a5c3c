import { createServer } from "node:net";

/**
 * Ports this process has handed out: the system may offer a port again as
 * soon as its probe closes, and two servers of one test given the same port
 * fail with "address already in use" (the class the launcher's auto ports hit).
 */
const handedOut = new Set<number>();

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
