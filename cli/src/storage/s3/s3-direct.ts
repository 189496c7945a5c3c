// A signed GET or HEAD of a bucket sent without the S3 SDK (issue 23): `mc ls
// ALIAS/BUCKET` is one such request, and loading the SDK (its modules and
// their dependencies) cost more than the request itself. The request is the
// one the SDK's makeRequestAsync would send, header for header (its
// getRequestOptions and signV4, minio 8: s3-direct.test.ts compares the two),
// and only where that is simple: path-style, a plain host name, a valid
// bucket name, no object key, no body. Anything else returns undefined and
// goes to the SDK; so does every answer but an expected 2xx (s3-sdk-client.ts
// sdkOutcome), so errors stay the SDK's.
import { createHash, createHmac } from "node:crypto";
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { s3Escape } from "./s3-escape.js";

export interface DirectTarget {
  readonly useSSL: boolean;
  /** Lower case, as the SDK keeps it. */
  readonly host: string;
  readonly port: number;
  readonly pathStyle: boolean;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly sessionToken?: string;
  readonly region: string;
  readonly agent: Agent;
  /** --custom-header entries (lower-case names), signed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly enableSHA256: boolean;
}

export interface DirectCall {
  readonly method: string;
  readonly bucketName?: string;
  readonly objectName?: string;
  readonly query?: string;
  readonly pathStyle?: boolean;
  readonly headers?: Readonly<Record<string, unknown>>;
}

/** What the SDK sends as User-Agent (minio 8.0.7's TypedClient; s3-direct.test.ts checks it against the SDK). */
export const sdkUserAgent = `MinIO (${process.platform}; ${process.arch}) minio-js/8.0.7`;

/** Host names the SDK accepts as they are (its isValidDomain), with no IPv6 brackets to join. */
const plainHost = /^[a-z0-9](?:[a-z0-9._-]{0,253}[a-z0-9])?$/;
/** The SDK's isValidBucketName. */
export const validBucket = (b: string): boolean => b.length >= 3 && b.length <= 63 && !b.includes("..") && !/[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/.test(b) && /^[a-z0-9][a-z0-9.-]+[a-z0-9]$/.test(b);
const amazon = (host: string): boolean => host === "s3.amazonaws.com" || host === "s3.cn-north-1.amazonaws.com.cn";

/** Whether the SDK would send this client's requests to `host:port` path-style, as this module does. */
export function directCapable(target: Pick<DirectTarget, "host" | "pathStyle">): boolean {
  return target.pathStyle && plainHost.test(target.host) && !amazon(target.host);
}

/** The SDK's makeDateLong and makeDateShort. */
const dateLong = (iso: string): string => `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;

/** The SDK's signV4 for service s3. */
export function signV4(method: string, path: string, headers: Readonly<Record<string, string>>, target: Pick<DirectTarget, "accessKey" | "secretKey">, region: string, date: Date, sha256sum: string): string {
  const ignored = ["authorization", "content-length", "content-type", "user-agent"];
  const signed = Object.keys(headers).filter((h) => !ignored.includes(h)).sort();
  const [resource = "", rawQuery = ""] = path.split("?");
  const query = rawQuery === "" ? "" : rawQuery.split("&").sort().map((e) => (e.includes("=") ? e : `${e}=`)).join("&");
  const lines = signed.map((h) => `${h.toLowerCase()}:${`${headers[h]}`.replace(/ +/g, " ")}`);
  const signedList = signed.join(";").toLowerCase();
  const canonical = [method.toUpperCase(), resource, query, `${lines.join("\n")}\n`, signedList, sha256sum].join("\n");
  const iso = date.toISOString();
  const scope = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", dateLong(iso), scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  let key: Buffer = createHmac("sha256", `AWS4${target.secretKey}`).update(scope.slice(0, 8)).digest();
  for (const part of [region, "s3", "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return `AWS4-HMAC-SHA256 Credential=${target.accessKey}/${scope}, SignedHeaders=${signedList}, Signature=${signature}`;
}

/** The request options the SDK's getRequestOptions and makeRequestStreamAsync build, signed at `date`. */
export function directRequestOptions(target: DirectTarget, call: DirectCall & { bucketName: string }, region: string, date: Date): RequestOptions & { headers: Record<string, string>; path: string } {
  const object = call.objectName ? `/${s3Escape(call.objectName).replace(/%2F/g, "/")}` : "";
  const path = `/${call.bucketName}${object}${call.query ? `?${call.query}` : ""}`;
  const headers: Record<string, string> = {};
  headers["host"] = (target.useSSL ? target.port !== 443 : target.port !== 80) ? `${target.host}:${target.port}` : target.host;
  headers["user-agent"] = sdkUserAgent;
  for (const [k, v] of Object.entries(call.headers ?? {})) if (v !== null && v !== undefined) headers[k.toLowerCase()] = String(v);
  Object.assign(headers, target.headers);
  const anonymous = target.accessKey === "" || target.secretKey === "";
  if (!anonymous) {
    const sha256sum = target.enableSHA256 ? createHash("sha256").update("").digest("hex") : "UNSIGNED-PAYLOAD";
    headers["x-amz-date"] = dateLong(date.toISOString());
    headers["x-amz-content-sha256"] = sha256sum;
    if (target.sessionToken) headers["x-amz-security-token"] = target.sessionToken;
    headers["authorization"] = signV4(call.method, path, headers, target, region, date, sha256sum);
  }
  return { method: call.method, headers, protocol: target.useSSL ? "https:" : "http:", agent: target.agent, host: target.host, port: target.port, path };
}

type Send = (options: RequestOptions, onResponse: (res: IncomingMessage) => void) => ClientRequest;

/**
 * Sends `call` when it is one this module makes as the SDK would, else
 * undefined. Resolves with the response, which is `expected` and 2xx;
 * any other answer goes to `sdk(res)` for the SDK's verdict.
 */
export function sendDirect(
  target: DirectTarget,
  call: DirectCall,
  payload: unknown,
  expected: readonly number[],
  region: string,
  send: Send,
  sdk: (res: IncomingMessage) => Promise<IncomingMessage>,
): Promise<IncomingMessage> | undefined {
  const bucket = call.bucketName;
  if ((call.method !== "GET" && call.method !== "HEAD") || (payload !== "" && payload !== undefined)) return undefined;
  if (bucket === undefined || !validBucket(bucket) || call.objectName || call.pathStyle !== undefined || !directCapable(target)) return undefined;
  const signingRegion = region || target.region;
  // No region at all: the SDK asks the server for the bucket's.
  if (signingRegion === "") return undefined;
  const options = directRequestOptions(target, { ...call, bucketName: bucket }, signingRegion, new Date());
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(options, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300 && expected.includes(status)) resolve(res);
      else sdk(res).then(resolve, reject);
    });
    req.on("error", reject);
    req.end("");
  });
}
