#!/usr/bin/env bash
# Writes vendor/scalar-api-reference/standalone.js, the script of the /api/docs page, from the npm package
# @scalar/api-reference at the version below (npm pack checks the registry's integrity). Its browser build
# is one self-contained file; installing the package would bring some 270 packages we do not run.
set -euo pipefail
VERSION=1.72.1
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@scalar/api-reference@$VERSION" >/dev/null && tar xzf "scalar-api-reference-$VERSION.tgz" package/dist/browser/standalone.js)
cp "$tmp/package/dist/browser/standalone.js" vendor/scalar-api-reference/standalone.js
printf '%s\n' "@scalar/api-reference $VERSION (MIT), dist/browser/standalone.js; written by scripts/vendor-api-reference.sh." \
  >vendor/scalar-api-reference/README
echo "vendor/scalar-api-reference: @scalar/api-reference $VERSION"
