#!/usr/bin/env bash
# Mapwright set-up: system packages, npm dependencies (native modules built against the
# system GDAL), the Electron-ABI builds where an Electron runtime exists, and the build.
# Then it starts the app, unless --no-start is given (CI uses that).
#
#   Debian 12 / Ubuntu 22.04+: apt (as root, or with sudo)
#   macOS:                     Homebrew (brew install gdal node@20; Chrome or Chromium for the browser tests)
#   elsewhere:                 install by hand: Node >= 20.6, GDAL >= 3.6 with its headers (gdal-config),
#                              a C++ toolchain and python3 (node-gyp), Chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

start=1
[[ ${1:-} == --no-start ]] && start=0

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

os=$(uname -s)
if [[ $os == Linux && -r /etc/os-release ]]; then
  . /etc/os-release
  case "${ID:-}:${ID_LIKE:-}" in
    debian:*|ubuntu:*|*:*debian*)
      # fonts-dejavu-core + fontconfig: the label glyphs (scripts/build-glyphs.ts, assets/glyphs/SOURCES.md).
      # bubblewrap: the sandbox of plugin commands (src-main/plugins/executors/bwrapSandbox.ts).
      # python3-gdal: GDAL's Python bindings for code.run_python (src-main/code/pythonRunner.ts).
      # fonts-droid-fallback: a CJK font (Apache-2.0) for Chinese map labels, the zh-CN interface and
      # Chinese PDF titles (src-main/print/cjkFont.ts, assets/fonts/SOURCES.md).
      pkgs=(libgdal-dev gdal-bin build-essential python3 ca-certificates fonts-dejavu-core fontconfig bubblewrap python3-gdal poppler-utils fonts-droid-fallback)
      # Debian ships Chromium as a deb; Ubuntu's `chromium` is a snap wrapper, so tests there
      # need MAPWRIGHT_CHROMIUM pointing at a Chrome/Chromium binary.
      if [[ ${ID} == debian ]]; then pkgs+=(chromium); fi
      # postgresql-15 + postgresql-15-postgis-3: the PostGIS tests (issue 16) start their own
      # throwaway server from these binaries (src-main/postgis/testing/pgTestCluster.ts) on a
      # loopback port; the cluster Debian may create on 5432 is never used. Debian 12 names the
      # packages this way; elsewhere those tests skip and say why.
      if [[ ${ID} == debian && ${VERSION_ID:-} == 12 ]]; then pkgs+=(postgresql-15 postgresql-15-postgis-3); fi
      missing=()
      for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
      if ((${#missing[@]})); then
        echo "setup: installing ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
      fi
      if ! command -v node >/dev/null || (( $(node -p 'process.versions.node.split(".")[0]') < 20 )); then
        echo "setup: Node >= 20.6 is required (Debian 12's nodejs is 18). Install Node 20 or 22 (e.g. from nodejs.org or NodeSource) and run this again." >&2
        exit 1
      fi
      ;;
    *) echo "setup: unknown Linux ($ID). Install Node >= 20.6, GDAL >= 3.6 with headers, a C++ toolchain, python3 and Chromium, then run: npm ci && npm run build" >&2 ;;
  esac
elif [[ $os == Darwin ]]; then
  command -v brew >/dev/null || { echo "setup: Homebrew is required on macOS (https://brew.sh)" >&2; exit 1; }
  brew list gdal >/dev/null 2>&1 || brew install gdal
  command -v node >/dev/null || brew install node@20
  echo "setup: for the browser tests set MAPWRIGHT_CHROMIUM to a Chrome or Chromium binary"
else
  echo "setup: unsupported system $os. Install Node >= 20.6, GDAL >= 3.6 with headers, a C++ toolchain and Chromium by hand, then run: npm ci && npm run build" >&2
  exit 1
fi

command -v gdal-config >/dev/null || { echo "setup: gdal-config not found; GDAL's development files are needed" >&2; exit 1; }
echo "setup: GDAL $(gdal-config --version), Node $(node --version)"

# .npmrc makes gdal-async build against the system GDAL (minutes) instead of its bundled copy (hours).
npm ci --no-audit --no-fund --loglevel warn
# Electron's runtime comes from GitHub, not the npm registry; where it cannot be fetched the
# app runs through the web host.
if timeout 600 node node_modules/electron/install.js >/dev/null 2>&1; then
  echo "setup: Electron runtime installed"
else
  echo "setup: the Electron runtime could not be downloaded here; npm start will use the web host"
fi
bash scripts/setup-electron-native.sh
npm run build --silent

if ((start)); then exec npm start; fi
echo "setup: done. Start the app with: npm start"
