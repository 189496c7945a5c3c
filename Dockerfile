# One image for every program (gateway, releases, kms); compose.yaml picks the
# command. Sources run through tsx, as from a clone: no build step to drift.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/shared/package.json services/shared/
COPY services/consensus/package.json services/consensus/
COPY services/kms/package.json services/kms/
COPY services/releases/package.json services/releases/
COPY gateway/package.json gateway/
COPY cli/package.json cli/
COPY wasm/package.json wasm/
COPY tests/package.json tests/
RUN npm ci --omit=dev --ignore-scripts
COPY . .
USER node
ENV NODE_ENV=production
EXPOSE 8080 7373
CMD ["node", "gateway/bin/gateway.js", "--listen", "0.0.0.0:8080"]
