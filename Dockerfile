# recipe-gateway: build with the dev toolchain, run with production dependencies only.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY mappings ./mappings
RUN npm run build

FROM node:22-slim
ENV NODE_ENV=production \
    GATEWAY_CONFIG=/etc/recipe-gateway/gateway.json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Config by mounted file (GATEWAY_CONFIG) or --config; the sandbox only with --sandbox.
CMD ["node", "dist/src/node/main.js"]
