import type { Client } from "minio";
import { s3Call } from "../s3-request.js";
import { child, parseXml, text } from "../xml.js";

/**
 * Creates (or updates) an SNS topic on an S3 server that speaks the SNS API on
 * its own endpoint, as Ceph RGW does; bucket notifications then name its ARN.
 * The request is form-encoded and signed like any other S3 call.
 */
export async function createTopic(client: Client, name: string, attributes: Readonly<Record<string, string>>): Promise<string> {
  const form = new URLSearchParams({ Action: "CreateTopic", Name: name });
  Object.entries(attributes).forEach(([k, v], i) => {
    form.set(`Attributes.entry.${i + 1}.key`, k);
    form.set(`Attributes.entry.${i + 1}.value`, v);
  });
  const res = await s3Call(client, { method: "POST", body: form.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const doc = parseXml(res.body.toString("utf8"));
  return text(child(doc["CreateTopicResponse"], "CreateTopicResult"), "TopicArn");
}
