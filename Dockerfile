# recipe-gateway: build with the dev toolchain, run with production dependencies only.
# Checked without a Docker engine by test/dockerfile-builds-and-starts-the-gateway.test.ts.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY mappings ./mappings
RUN npm run build

FROM node:22-slim
# GATEWAY_CONFIG: the config file, mounted read-only (docker run -v ./gateway.json:/etc/recipe-gateway/gateway.json:ro).
# PORT: the listen port inside the container; it overrides listen.port of the config file, so that
# EXPOSE and HEALTHCHECK always agree with where the gateway listens (docker run -e PORT=… to change).
ENV NODE_ENV=production \
    GATEWAY_CONFIG=/etc/recipe-gateway/gateway.json \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Config by mounted file (GATEWAY_CONFIG) or environment; arguments are appended to the entrypoint:
#   docker run … recipe-gateway                   the config file at GATEWAY_CONFIG (no sandbox)
#   docker run … recipe-gateway --check-config    validate it and exit 0/1
#   docker run -p 8080:8080 recipe-gateway --sandbox   the embedded sandbox backend, only when asked
# The gateway handles SIGTERM (docker stop): it stops listening and flushes the usage log.
# The young generation's size and no allocation-site pretenuring: the same flags as `npm run serve` (package.json; see
# docs/benchmarks-anchors.md, "Node flags").
ENTRYPOINT ["node", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "dist/src/node/main.js"]
CMD []
