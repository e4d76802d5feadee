#!/usr/bin/env bash
# Builds the native modules for Electron's ABI beside the Node builds, which stay untouched
# (the web host and the tests load those):
#   - better-sqlite3 -> .electron-native/better_sqlite3.node (the store gets it as `nativeBinding`,
#     see src-main/hosts/electron/nativeBindings.ts); built from a copy of the package.
#   - gdal-async     -> node_modules/gdal-async/lib/binding/electron-vMAJOR.MINOR-PLATFORM-ARCH/,
#     next to node-vABI-…: node-pre-gyp names the folder from its `module_path`
#     ("./lib/binding/{node_abi}-{platform}-{arch}", node_abi = "electron-v" + major.minor) and
#     picks it at run time from process.versions.electron.
# Needs the Electron runtime, a compiler, GDAL's development files (unless MAPWRIGHT_SHARED_GDAL=false)
# and network access to electronjs.org/headers.
# Where the runtime is missing (it cannot be downloaded on every machine) it says so and exits 0,
# unless --require is given (npm run dist: a package without Electron-ABI modules would not start).
#
#   --require   exit 1 when the Electron runtime is missing
#   --dry-run   print what would be built and how, build nothing (works without the runtime)
#   --help      this text
# MAPWRIGHT_SHARED_GDAL=false builds gdal-async with its bundled GDAL instead of the system's
# (no system GDAL needed, e.g. on Windows; hours on a small machine).
set -euo pipefail
cd "$(dirname "$0")/.."

require=0 dry=0
for arg in "$@"; do
  case $arg in
    --require) require=1 ;;
    --dry-run) dry=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup-electron-native: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done
shared_gdal=${MAPWRIGHT_SHARED_GDAL:-true}
[[ $shared_gdal == true || $shared_gdal == false ]] || { echo "setup-electron-native: MAPWRIGHT_SHARED_GDAL must be true or false" >&2; exit 2; }

# Not `require('electron')`: that tries to download the binary when it is missing.
electron_dir=node_modules/electron
have_runtime=1
if [[ ! -f $electron_dir/path.txt || ! -x $electron_dir/dist/$(cat "$electron_dir/path.txt") ]]; then have_runtime=0; fi
if ((!have_runtime && !dry)); then
  if ((require)); then
    echo "setup-electron-native: no Electron runtime in $electron_dir/dist; packages need the native modules built for Electron (install it: node $electron_dir/install.js)" >&2
    exit 1
  fi
  echo "setup-electron-native: skipped, no Electron runtime in $electron_dir/dist (the app runs through the web host here)"
  exit 0
fi
if [[ -f $electron_dir/dist/version ]]; then
  version=$(tr -d 'v[:space:]' < "$electron_dir/dist/version")
else
  version=$(node -p "require('./$electron_dir/package.json').version")
fi
headers=https://electronjs.org/headers
root=$PWD
# Git Bash on Windows: a path Electron and Node understand (D:/a/…, not /d/a/…).
case $(uname -s) in MINGW*|MSYS*|CYGWIN*) root=$(pwd -W) ;; esac
if ((dry)); then
  abi_dir="electron-v$(cut -d. -f1,2 <<<"$version")-$(node -p 'process.platform')-$(node -p 'process.arch')"
  echo "setup-electron-native: dry run for Electron $version (runtime $( ((have_runtime)) && echo present || echo missing))"
  echo "  better-sqlite3: node-gyp rebuild --runtime=electron --target=$version --dist-url=$headers (in a copy) -> .electron-native/better_sqlite3.node"
  echo "  gdal-async:     npm rebuild gdal-async (build_from_source, shared_gdal=$shared_gdal, runtime=electron, target=$version) -> node_modules/gdal-async/lib/binding/$abi_dir/"
  echo "  then loads both under Electron (ELECTRON_RUN_AS_NODE) and under Node"
  exit 0
fi
electron_bin=$electron_dir/dist/$(cat "$electron_dir/path.txt")
if [[ -x node_modules/.bin/node-gyp ]]; then node_gyp=("$root/node_modules/.bin/node-gyp"); else node_gyp=(npx --yes node-gyp); fi
echo "setup-electron-native: building for Electron $version (shared GDAL: $shared_gdal)"

# better-sqlite3 keeps a single build/Release, so build a copy and take the .node out.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R node_modules/better-sqlite3 "$tmp/better-sqlite3"
rm -rf "$tmp/better-sqlite3/build"
(cd "$tmp/better-sqlite3" && "${node_gyp[@]}" rebuild --release --runtime=electron --target="$version" --dist-url="$headers")
mkdir -p .electron-native
cp "$tmp/better-sqlite3/build/Release/better_sqlite3.node" .electron-native/better_sqlite3.node

# gdal-async: node-pre-gyp and node-gyp both read these npm_config_* variables; shared_gdal
# links the system's libgdal instead of compiling the bundled GDAL (hours on 2 cores).
npm_config_build_from_source=true npm_config_shared_gdal=$shared_gdal \
  npm_config_runtime=electron npm_config_target="$version" npm_config_dist_url="$headers" \
  npm rebuild gdal-async

# Check both ABIs: Electron loads the new builds, Node still loads its own.
ELECTRON_RUN_AS_NODE=1 "$electron_bin" -e "
  const Database = require('better-sqlite3');
  new Database(':memory:', { nativeBinding: '$root/.electron-native/better_sqlite3.node' }).close();
  console.log('electron: better-sqlite3 ok, gdal-async', require('gdal-async').version);"
node -e "
  new (require('better-sqlite3'))(':memory:').close();
  console.log('node: better-sqlite3 ok, gdal-async', require('gdal-async').version);"
ls -d node_modules/gdal-async/lib/binding/*/
