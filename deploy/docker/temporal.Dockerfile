# syntax=docker/dockerfile:1
# Temporal server, its SQL schema tool and the Temporal CLI, built from the Go module proxy at the
# versions pinned in deploy/versions.json (deploy/compose.yaml passes them as build args; the
# deploy-files test checks that they agree). Build context: this folder.

FROM golang:1.25-bookworm AS build
ARG TEMPORAL_VERSION
ARG TEMPORAL_CLI_VERSION
# Static binaries, so that the runtime image needs no C library beyond the base one.
ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false GOBIN=/out
# The SQL schemas ship inside the server module, so they come from the very same version.
RUN : "${TEMPORAL_VERSION:?pass --build-arg TEMPORAL_VERSION}" "${TEMPORAL_CLI_VERSION:?pass --build-arg TEMPORAL_CLI_VERSION}" \
 && go install "go.temporal.io/server/cmd/server@${TEMPORAL_VERSION}" \
 && go install "go.temporal.io/server/cmd/tools/sql@${TEMPORAL_VERSION}" \
 && go install "github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}" \
 && cp -r "$(go env GOMODCACHE)/go.temporal.io/server@${TEMPORAL_VERSION}/schema" /out/schema

FROM debian:bookworm-slim
RUN useradd --system --no-create-home temporal
COPY --from=build /out/server /usr/local/bin/temporal-server
COPY --from=build /out/sql /usr/local/bin/temporal-sql-tool
COPY --from=build /out/temporal /usr/local/bin/temporal
COPY --from=build /out/schema /etc/temporal/schema
# The server reads <config dir>/<env>.yaml: production.yaml for `--env production` below.
COPY temporal-config.yaml /etc/temporal/config/production.yaml
COPY temporal-dynamicconfig.yaml /etc/temporal/config/dynamicconfig.yaml
COPY --chmod=755 temporal-schema.sh /usr/local/bin/temporal-schema.sh
USER temporal
EXPOSE 7233
# No authorizer is configured (the frontend is reachable only inside the stack and on the host's
# loopback); saying so explicitly keeps the server from warning at every start.
CMD ["temporal-server", "--root", "/etc/temporal", "--config", "config", "--env", "production", "--allow-no-auth", "start"]
