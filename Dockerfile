# One image serves both `api` and `worker`: the compiled JavaScript (npm run build) on Node 26, the runtime line
# (package.json's engines, README "Node"). TypeScript, tsx and the other development packages stay in the build stage.
FROM node:26-trixie-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- /app

FROM node:26-trixie-slim
WORKDIR /app
ENV NODE_ENV=production
# Memory (docs/deploy.md, "Memory"): V8 grows the heap by up to 4× between collections when its limit is Node's
# default (a quarter of the host's RAM) and keeps 32 MB of young space; glibc keeps up to 8 malloc arenas a core for
# the SDK's threads. With these (and the worker's smaller young space, docker-compose.yml) chasqui worker stays near
# 240 MB resident under load, not 430–465 (bench:soak).
ENV NODE_OPTIONS="--max-old-space-size=384" MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json /app/package-lock.json ./
# The production dependencies; the node-<platform> package that brings the runtime line to development machines is
# not one the image needs (its node is the base image's).
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/node-linux-* node_modules/.bin/node \
  && npm cache clean --force
COPY --from=build /app ./
USER node
EXPOSE 3000
# bin/chasqui runs the compiled layout with source maps on (stack traces name the TypeScript lines).
ENTRYPOINT ["node", "bin/chasqui"]
CMD ["api"]
