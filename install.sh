#!/usr/bin/env bash
# ViewStream installer. Idempotent: run it again any time.
#   ./install.sh            install what is missing (Bun from npm, ffmpeg from Debian), dependencies, build dist/viewstream
#   ./install.sh --start    ... then start `viewstream serve` on its embedded defaults (data ./data, port 8080)
#   ./install.sh --test     ... then run the whole test suite (ends with "N passed, N failed")
#   ./install.sh --system   ... then install /usr/local/bin/viewstream, data in /var/lib/viewstream, a systemd unit
set -euo pipefail
cd "$(dirname "$0")"

MODE=build
for a in "$@"; do
  case "$a" in
    --start) MODE=start ;; --test) MODE=test ;; --system) MODE=system ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

BUN_VERSION=1.4.5
SUDO=""
if [ "$(id -u)" -ne 0 ]; then command -v sudo >/dev/null && SUDO="sudo" || true; fi
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

apt_updated=0
apt_install() {
  if ! command -v apt-get >/dev/null; then echo "install.sh: please install $* with your package manager" >&2; exit 1; fi
  if [ "$apt_updated" = 0 ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Bun (runtime, test runner, bundler) comes from the npm registry.
if ! command -v bun >/dev/null || [ "$(bun --version 2>/dev/null)" != "$BUN_VERSION" ]; then
  if ! command -v npm >/dev/null; then echo "install.sh: Node.js and npm are required to install Bun" >&2; exit 1; fi
  say "installing bun@$BUN_VERSION from npm"
  $SUDO npm install -g --silent "bun@$BUN_VERSION" >/dev/null 2>&1 || $SUDO npm install -g "bun@$BUN_VERSION"
  hash -r
fi

# ffmpeg/ffprobe with libsrt, libx264 and the GPU encoders: Debian's package.
if ! command -v ffmpeg >/dev/null || ! command -v ffprobe >/dev/null; then
  say "installing ffmpeg (Debian package)"
  apt_install ffmpeg
fi

# Tests drive a real browser (Debian's Chromium through playwright-core) and independent players and encoders
# (GStreamer's playbin/playbin3, x264enc, srtsink, rtmp2sink) for the interop matrix.
if [ "$MODE" = test ] && ! command -v chromium >/dev/null; then
  say "installing chromium (Debian package) for browser tests"
  apt_install chromium
fi
if [ "$MODE" = test ] && ! command -v gst-launch-1.0 >/dev/null; then
  say "installing GStreamer (Debian packages) for the interop tests"
  apt_install gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
fi
# The built-in speech engine (English) and Debian's recorded test speech with reference transcripts (subtitles tests).
if [ "$MODE" = test ] && ! command -v pocketsphinx_continuous >/dev/null; then
  say "installing pocketsphinx (Debian packages) for the subtitles tests"
  apt_install pocketsphinx pocketsphinx-en-us pocketsphinx-testdata
fi
# xmllint validates the public sites' sitemaps against the sitemap and video-sitemap XSDs (sites tests).
if [ "$MODE" = test ] && ! command -v xmllint >/dev/null; then
  say "installing xmllint (Debian libxml2-utils) for the sites tests"
  apt_install libxml2-utils
fi

# kcat starts librdkafka's Kafka-protocol mock cluster for the event export tests (Debian has no Kafka broker);
# the AWS CLI is the standard S3 client the storage-key tests drive.
if [ "$MODE" = test ] && ! command -v kcat >/dev/null; then
  say "installing kcat (Debian package) for the event export tests"
  apt_install kcat
fi
# NATS JetStream (Debian nats-server) is the job queue of the cluster tests (issue 49: workers on other machines).
if [ "$MODE" = test ] && ! command -v nats-server >/dev/null && [ ! -x /usr/sbin/nats-server ]; then
  say "installing nats-server (Debian package) for the cluster tests"
  apt_install nats-server
fi
# Debian's OpenSSH server is the SFTP peer of the guide publishing tests (a temporary sshd on a free port).
if [ "$MODE" = test ] && [ ! -x /usr/sbin/sshd ]; then
  say "installing openssh-server (Debian package) for the guide destination tests"
  apt_install openssh-server
fi

# The delivery front and edge cache run Debian's nginx: `serve` puts it on the public port by default (without it the
# appliance serves alone, slower, with no edge cache, and says so at start and in `doctor`).
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  say "installing nginx-light (Debian package): the delivery front and edge cache"
  # Its postinst starts Debian's default site; where that start fails the binary is unpacked all the same.
  apt_install nginx-light || say "nginx-light: the package did not configure cleanly (its default site did not start); using the unpacked binary"
fi

# ss (iproute2) reads the front's socket options back in its tests (Debian's minimal images do not have it).
if [ "$MODE" = test ] && ! command -v ss >/dev/null; then
  say "installing iproute2 (Debian package) for the delivery front's tests"
  apt_install iproute2
fi

say "installing dependencies from bun.lock"
bun install --frozen-lockfile >/dev/null

say "building dist/viewstream"
bun scripts/build.ts >/dev/null

case "$MODE" in
  start)
    say "starting ViewStream (Ctrl-C stops it)"
    exec ./dist/viewstream serve ;;
  test)
    exec bun scripts/test.ts ;;
  system)
    say "installing /usr/local/bin/viewstream and /var/lib/viewstream"
    $SUDO install -m 0755 dist/viewstream /usr/local/bin/viewstream
    $SUDO mkdir -p /var/lib/viewstream /etc/viewstream && $SUDO chmod 0700 /var/lib/viewstream
    if ! id viewstream >/dev/null 2>&1 && command -v useradd >/dev/null; then $SUDO useradd --system --home /var/lib/viewstream --shell /usr/sbin/nologin viewstream || true; fi
    id viewstream >/dev/null 2>&1 && $SUDO chown -R viewstream: /var/lib/viewstream || true
    if [ ! -f /etc/viewstream/viewstream.env ]; then
      printf 'VS_DATA_DIR=/var/lib/viewstream\nVS_PORT=8080\n# VS_BASE_URL=https://video.example.com\n' | $SUDO tee /etc/viewstream/viewstream.env >/dev/null
    fi
    # It may hold VS_MASTER_KEY or VS_SMTP_URL credentials: readable by root only.
    $SUDO chmod 0600 /etc/viewstream/viewstream.env
    if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
      $SUDO install -m 0644 scripts/viewstream.service /etc/systemd/system/viewstream.service
      $SUDO systemctl daemon-reload
      $SUDO systemctl enable --now viewstream
      say "viewstream.service started; the first owner key is in: journalctl -u viewstream | grep vs_"
    else
      say "no systemd here: start it with  VS_DATA_DIR=/var/lib/viewstream viewstream serve"
    fi ;;
  build)
    say "built dist/viewstream — start it with ./dist/viewstream serve" ;;
esac
