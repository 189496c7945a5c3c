// The S3 SDK's client, made only when a command needs more than the signed
// GET/HEAD that s3-direct.ts sends itself (issue 23: `mc ls` should not pay
// for loading the SDK). A deferred module (cli/scripts/build.mjs): the SDK
// and everything only it imports load on the first call here.
import type { IncomingMessage } from "node:http";
import { Client, type ClientOptions } from "minio";

/** The SDK's client plus our custom headers, added where it builds each request so they are signed too. */
class McClient extends Client {
  constructor(
    options: ClientOptions,
    private readonly extraHeaders: Readonly<Record<string, string>>,
  ) {
    super(options);
  }

  protected override getRequestOptions(opts: Parameters<Client["getRequestOptions"]>[0]): ReturnType<Client["getRequestOptions"]> {
    const request = super.getRequestOptions(opts);
    Object.assign(request.headers, this.extraHeaders);
    return request;
  }
}

export function createSdkClient(options: ClientOptions, headers: Readonly<Record<string, string>>, enableSHA256: boolean): Client {
  const client = new McClient(options, headers);
  client.enableSHA256 = enableSHA256;
  return client;
}

/**
 * What the SDK makes of a response that s3-direct.ts received: the same
 * request is replayed through an SDK client whose transport answers with
 * that response (nothing is sent again), so an error is the SDK's own, to the
 * letter: its S3Error from the body, its retry message for a 503.
 */
export function sdkOutcome(
  options: ClientOptions,
  headers: Readonly<Record<string, string>>,
  enableSHA256: boolean,
  response: IncomingMessage,
  args: Parameters<Client["makeRequestAsync"]>,
): Promise<IncomingMessage> {
  const transport = {
    request(_options: unknown, onResponse: (res: IncomingMessage) => void) {
      const answer = { on: () => answer, end: () => void onResponse(response) };
      return answer;
    },
  };
  return createSdkClient({ ...options, transport: transport as unknown as NonNullable<ClientOptions["transport"]> }, headers, enableSHA256).makeRequestAsync(...args);
}
