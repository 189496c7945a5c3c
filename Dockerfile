# One image for every program (gateway, releases, kms, and the compose init
# step that makes the certificates); compose.yaml picks the command. Sources
# run through tsx, as from a clone: no build step to drift.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/shared/package.json services/shared/
COPY services/consensus/package.json services/consensus/
COPY services/kms/package.json services/kms/
COPY services/releases/package.json services/releases/
COPY gateway/package.json gateway/
COPY app/package.json app/
COPY cli/package.json cli/
COPY wasm/package.json wasm/
COPY tests/package.json tests/
# --ignore-scripts skips native builds: the software HSM needs none, and the
# PKCS#11 addon (pkcs11js) loads only when hsm.pkcs11 is configured; an image
# for a PKCS#11 HSM adds build tools and `npm rebuild pkcs11js` here.
RUN npm ci --omit=dev --ignore-scripts
COPY . .
# Mount points of the named volumes, owned by the runtime user so that Docker
# copies that ownership into fresh volumes.
RUN mkdir -p /ca /secrets /data /releases && chown node:node /ca /secrets /data /releases
USER node
ENV NODE_ENV=production
EXPOSE 8080 7373
CMD ["node", "app/bin/gateway.js", "--listen", "0.0.0.0:8080"]
