import { X509Certificate } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parseIdentity } from "../../domain/identity.js";
import { clientCertificateOf, identityOfSeed, newApiKey, parseApiKey } from "./api-key.js";
import { identityOfCertificate } from "./identity-of-cert.js";

const keys = suite("API keys and identities (contract §2, §11)");

keys("should match the KES vectors", () => {
  const vectors = [
    ["kes:v1:AGaV6VXHasF0FnaB60WdCOeTZ8eTIDikL4zlN16c8NAs", "ea9826089311fe44d7590408ede9150f7c637b6cab0a91ee6fe1aa5d9fb366f6"],
    ["kes:v1:AD9E7FSYWrMD+VjhI6q545cYT9YOyFxZb7UnjEepYDRc", "3ecfcdf38fcbe141ae26a1030f81e96b753365a46760ae6b578698a97c59fd22"],
  ] as const;
  for (const [key, hex] of vectors) {
    const seed = parseApiKey(key);
    assert.ok(seed, key);
    assert.is(identityOfSeed(seed), parseIdentity(hex));
  }
});

keys("should match the k1 vector", () => {
  const seed = parseApiKey("k1:d7cY_5k8HbBGkZpoy2hGmvkxg83QDBXsA_nFXDfTk2E");
  assert.ok(seed);
  assert.is(identityOfSeed(seed), "h1:Rvxa7nj8zkL48CeDkN6LhpX-K7KK6uhIhpBOcTHNhWw");
});

keys("should refuse malformed keys", () => {
  for (const bad of ["", "k1:", "k1:abc", "k2:d7cY_5k8HbBGkZpoy2hGmvkxg83QDBXsA_nFXDfTk2E", "kes:v1:AQ==", "k1:d7cY_5k8HbBGkZpoy2hGmvkxg83QDBXsA_nFXDfTk2E="]) {
    assert.is(parseApiKey(bad), undefined, bad);
  }
});

keys("should mint a self-signed Ed25519 client certificate whose identity is the key's", async () => {
  const key = newApiKey();
  const seed = parseApiKey(key);
  assert.ok(seed);
  const c = await clientCertificateOf(seed);
  const x = new X509Certificate(c.cert);
  assert.is(x.subject, `CN=${c.identity}`);
  assert.is(x.publicKey.asymmetricKeyType, "ed25519");
  assert.ok(x.verify(x.publicKey), "self-signed");
  const days = (Date.parse(x.validTo) - Date.parse(x.validFrom)) / 86_400_000;
  assert.ok(days >= 89 && days <= 91, `${days} days`);
  assert.is(identityOfCertificate(c.cert), identityOfSeed(seed));
});

keys.run();
