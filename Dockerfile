# Ferry container image.
#   docker build -t ferry .
#   docker run -d --name ferry --init -p 3000:3000 -v ferry-data:/app/data ferry
#
# Stage 1 builds the same single executable as `bun run build` does locally (dist/ferry, with the
# migrations and console assets embedded). Stage 2 only carries that file: it is dynamically linked
# against glibc alone, so a slim Debian of the same generation is enough.

FROM oven/bun:1.4.5 AS build
WORKDIR /app
# Dependencies first, so this layer is reused while only the source changes.
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build && test -x dist/ferry


FROM debian:bookworm-slim
RUN apt-get update \
	&& apt-get install -y --no-install-recommends ca-certificates \
	&& rm -rf /var/lib/apt/lists/* \
	&& groupadd --system --gid 10001 ferry \
	&& useradd --system --uid 10001 --gid ferry --create-home --home-dir /home/ferry --shell /usr/sbin/nologin ferry \
	&& mkdir -p /app/data \
	&& chown ferry:ferry /app/data

WORKDIR /app
# Owned by root and not writable by the service user.
COPY --from=build /app/dist/ferry /app/ferry

ENV DATA_DIR=/app/data \
	PORT=3000
USER ferry
VOLUME /app/data
EXPOSE 3000

# No curl in the image: the binary contains the Bun runtime, and BUN_BE_BUN=1 makes it behave as
# the plain `bun` CLI, which can fetch the public status endpoint.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
	CMD ["env", "BUN_BE_BUN=1", "/app/ferry", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/status', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Ferry stops cleanly on SIGTERM (src/main.ts); `docker run --init` still helps as PID 1 reaps
# any child process.
ENTRYPOINT ["/app/ferry"]
