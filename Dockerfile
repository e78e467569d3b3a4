# syntax=docker/dockerfile:1
# Debian 13 (trixie), the current stable: its OpenSSL 3.5 and glibc are what the image's TLS
# and the exporter run on, with security support for years. Built with the daemon's packages only
# (no GoogleTest, no libcurl) and civetweb 1.16 from Debian 13's own source package
# (scripts/build-civetweb.sh: pinned by SHA-256, Debian's patches, OpenSSL 3 linked, IPv6 on;
# Debian's libcivetweb crashes on the first TLS handshake). Runs on a slim Debian 13 with only
# the shared libraries the binary links. Built in CI without a Docker daemon by
# scripts/build-image.sh (debootstrap + buildah); `docker build .` works the same.
ARG DEBIAN_IMAGE=debian:13
ARG DEBIAN_SLIM_IMAGE=debian:13-slim

FROM ${DEBIAN_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build prometheus-cpp-dev rapidjson-dev libcrypt-dev zlib1g-dev libssl-dev \
      curl ca-certificates xz-utils patch \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# civetweb in a layer of its own, before the sources: a change to them does not rebuild it.
COPY scripts/build-civetweb.sh scripts/
RUN bash scripts/build-civetweb.sh /opt/civetweb
COPY . .
ARG REVISION=unknown
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
      -DOVN_RAFT_BUILD_REPORT=OFF -DOVN_RAFT_CIVETWEB=source -DOVN_RAFT_CIVETWEB_PREFIX=/opt/civetweb \
      -DOVN_RAFT_REVISION="${REVISION}" \
    && ninja -C /build ovn-raft-exporter \
    && strip /build/exporter/ovn-raft-exporter

FROM ${DEBIAN_SLIM_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends \
      libssl3t64 libcrypt1 zlib1g \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
    && useradd --system --uid 65532 --no-create-home --shell /usr/sbin/nologin exporter
COPY --from=build /build/exporter/ovn-raft-exporter /usr/local/bin/ovn-raft-exporter
ARG DEBIAN_SLIM_IMAGE
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="ovn-raft-exporter" \
      org.opencontainers.image.description="Prometheus exporter for the Raft clusters of OVN's Northbound and Southbound databases" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/ovn-raft-exporter/ovn-raft-exporter" \
      org.opencontainers.image.base.name="${DEBIAN_SLIM_IMAGE}"
# Non-root by default; the Kubernetes components set the sockets' owner (runAsUser) explicitly.
USER 65532
EXPOSE 10476
HEALTHCHECK --interval=30s --timeout=3s CMD ["/usr/local/bin/ovn-raft-exporter", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/ovn-raft-exporter"]
