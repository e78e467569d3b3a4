# syntax=docker/dockerfile:1
# Build on Debian 12 with the same packages as scripts/install-deps.sh; run on a slim Debian 12
# with only the shared libraries the binary links.
FROM debian:12 AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build git ca-certificates \
      prometheus-cpp-dev libcivetweb-dev libcurl4-openssl-dev rapidjson-dev libgtest-dev libgmock-dev libcrypt-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    && ninja -C /build ovn-raft-exporter \
    && strip /build/exporter/ovn-raft-exporter

FROM debian:12-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
      libprometheus-cpp-core1.0 libcivetweb1 libcrypt1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 65532 --no-create-home --shell /usr/sbin/nologin exporter
COPY --from=build /build/exporter/ovn-raft-exporter /usr/local/bin/ovn-raft-exporter
USER 65532
EXPOSE 10476
HEALTHCHECK --interval=30s --timeout=3s CMD ["/usr/local/bin/ovn-raft-exporter", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/ovn-raft-exporter"]
