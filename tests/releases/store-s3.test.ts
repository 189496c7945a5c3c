import { Client } from "minio";
import { createS3ReleaseStore } from "@mc/releases";
import { startCephRgw, type CephRgw } from "../harness/ceph-rgw.js";
import { defineStoreSuite } from "./store-suite.js";

let rgw: CephRgw | undefined;
defineStoreSuite("release store on an S3 bucket (Ceph RGW)", {
  async setup() {
    rgw = await startCephRgw();
    const url = new URL(rgw.endpoint);
    const admin = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: rgw.region, pathStyle: true });
    await admin.makeBucket("releases", rgw.region);
    return createS3ReleaseStore({ endpoint: rgw.endpoint, bucket: "releases", prefix: "dl", accessKey: rgw.accessKey, secretKey: rgw.secretKey, region: rgw.region });
  },
  teardown: async () => {
    await rgw?.stop();
  },
});
