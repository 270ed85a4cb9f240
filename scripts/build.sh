#!/usr/bin/env bash
# npm run build: dist/intake, one executable holding the runtime, the code, both databases' migrations and
# the API docs page's script (bun build --compile). An argument names another output file.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/intake}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
bun build src/main/cli.ts --compile --minify --sourcemap --define "INTAKE_COMMIT=\"$commit\"" --outfile "$out"
# The source map is inside the executable too (stack traces name source lines); the copy beside it is not needed.
rm -f "$out.map"
