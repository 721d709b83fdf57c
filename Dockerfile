# chasqui runs from its TypeScript sources through tsx; one image serves both `api` and `worker`.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/chasqui"]
CMD ["api"]
