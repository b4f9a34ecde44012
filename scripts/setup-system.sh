#!/usr/bin/env bash
# Installs the Debian packages the toolkit needs, or, when not root, prints the exact command to run.
# Idempotent and quick when everything is there: it asks dpkg first and touches apt only for what is missing.
set -euo pipefail

packages=(
  python3-venv            # the virtual environment in .venv
  libpango-1.0-0          # WeasyPrint's text layout
  libpangoft2-1.0-0
  libharfbuzz-subset0     # WeasyPrint's font subsetting (2x faster, no deprecation warning)
  fontconfig
  fonts-morisawa-bizud-gothic   # Japanese sans with a real bold
  fonts-morisawa-bizud-mincho
  poppler-utils           # pdftotext / pdftoppm / pdffonts, for tests and for looking at PDFs
  graphviz                # the rulebook's flow diagrams
  chromium-headless-shell # the real-browser tests (Chromium without its window: lighter than the whole browser)
  gcc                     # mypyc compiles the simulator (scripts/build_native.py) to C extensions
  libc6-dev
  python3-dev             # Python.h for those extensions
  npm                     # fetches the play page's Pyodide runtime once (blackpoker fetch-pyodide: npm pack)
)
# Installed when root, but not required: without them the simulator runs its Python sources, and
# scripts/build_native.py says so once (BLACKPOKER_NATIVE=require makes it an error there).
optional=" gcc libc6-dev python3-dev "

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# python3-venv is only needed when the interpreter lacks ensurepip (Debian's own python3 does).
if python3 -c 'import ensurepip' 2>/dev/null; then
  missing=("${missing[@]/python3-venv}")
fi
# npm is only needed when there is no npm command (Node.js from elsewhere ships its own, and conflicts with Debian's).
if command -v npm >/dev/null 2>&1; then
  missing=("${missing[@]/npm}")
fi
# python3-dev is only needed when the interpreter has no headers of its own (a pyenv or python.org build has them).
if python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"))' 2>/dev/null; then
  missing=("${missing[@]/python3-dev}")
fi
read -r -a missing <<<"${missing[*]:-}"

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  required=()
  for p in "${missing[@]}"; do
    [[ "$optional" == *" $p "* ]] || required+=("$p")
  done
  if [ "${#required[@]}" -eq 0 ]; then
    exit 0  # only the compiler is missing: build_native.py warns
  fi
  echo "These Debian packages are missing: ${missing[*]}" >&2
  echo "Run as root:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
echo "Installing Debian packages: ${missing[*]}"
sh -c "$cmd"
