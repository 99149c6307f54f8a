# The standalone server as a small static image.
#
#   docker build -t llmtestserver --build-arg VERSION=$(git describe --tags --always --dirty) .
#   docker run --rm -p 8080:8080 llmtestserver -addr 0.0.0.0:8080
#
# Inside the container the server listens on loopback unless told
# otherwise: publishing a port needs -addr 0.0.0.0:8080 (or
# LLMTEST_ADDR=0.0.0.0:8080), as above. Every flag, environment variable and
# the -config file work as for the binary (see the README).

# The build stage's Go is go.mod's (cmd/llmtestserver/dockerfile_test.go
# checks it).
FROM golang:1.26 AS build
WORKDIR /src
# The modules first, so that a change of the sources reuses their layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
# Static (no cgo), without the build machine's paths, with the version
# -version prints (empty: the module's version, else "(devel)").
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
    -o /out/llmtestserver ./cmd/llmtestserver

# Nothing but the binary: no shell, no package manager.
FROM scratch
COPY --from=build /out/llmtestserver /llmtestserver
# Not root: a numeric user, since scratch has no /etc/passwd to name one.
USER 65532:65532
EXPOSE 8080
# The binary checks itself, as the image has no shell or curl. With
# another port, override it: docker run --health-cmd or a HEALTHCHECK of
# your own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/llmtestserver", "-health-check", "http://127.0.0.1:8080/healthz"]
# No CMD: the binary's own default, 127.0.0.1:8080, keeps the server on
# loopback, and arguments, LLMTEST_* variables and a -config file all
# reach it.
ENTRYPOINT ["/llmtestserver"]
