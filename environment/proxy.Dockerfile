# The egress proxy of networks `llm` and `egress` (mlebench/execution/docker/egress.py), tag
# mlebench-egress-proxy:<content hash>. Squid from Debian is the proxy, its OpenSSL build (squid-openssl: it
# inspects TLS with a CA of the cell's own, mlebench/execution/egress_tls.py); iptables and iproute2 are for the
# agent's network sandbox, a second container from this image that seals the agent's network namespace
# (no route, nothing but the proxy's port) before the agent joins it. The squid configuration is written
# per cell by the runner; nothing of the checkout is in this image.
ARG BASE_IMAGE=mlebench-debian:bookworm
FROM ${BASE_IMAGE}

ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 LC_ALL=C.UTF-8
RUN apt-get update \
 && apt-get install -y --no-install-recommends squid-openssl iptables iproute2 \
 && rm -rf /var/lib/apt/lists/* \
 && rm -f /etc/squid/squid.conf
