// The connect suite again, with the root key in a SoftHSM2 token over PKCS#11.
process.env.KMS_TEST_HSM = "pkcs11";
await import("./connect.test.js");
