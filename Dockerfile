# chasqui runs from its TypeScript sources through tsx; one image serves both `api` and `worker`.
FROM node:26-trixie-slim
WORKDIR /app
ENV NODE_ENV=production
# Memory (docs/deploy.md, "Memory"): V8 grows the heap by up to 4× between collections when its limit is Node's
# default (a quarter of the host's RAM) and keeps 32 MB of young space; glibc keeps up to 8 malloc arenas a core for
# the SDK's threads. With these (and the worker's smaller young space, docker-compose.yml) chasqui worker stays near
# 240 MB resident under load, not 430–465 (bench:soak).
ENV NODE_OPTIONS="--max-old-space-size=384" MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/chasqui"]
CMD ["api"]
