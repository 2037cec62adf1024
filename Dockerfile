# Entia in a container (README, "Running in production"): built from this repository with the quick start's
# own commands, run as the unprivileged `node` user, the store in the volume /data, healthy once /ready answers.
#   docker build -t entia . && docker run -p 8080:8080 -v entia-data:/data entia
FROM node:20-bookworm-slim

# bzip2: `entia import` reads .bz2 dumps through bzcat.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bzip2 \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/entia
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json tsconfig.ui.json ./
COPY src ./src
# npm ci installs exactly the lock file and builds dist/ (the package's prepare script).
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund && npm cache clean --force

RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node

ENV NODE_ENV=production \
    ENTIA_DB=/data/entia.db \
    HOST=0.0.0.0 \
    PORT=8080
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server itself, not npm, so that SIGTERM reaches it and it stops cleanly.
CMD ["node", "dist/cli/main.js", "serve"]
