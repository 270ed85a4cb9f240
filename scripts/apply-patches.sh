#!/usr/bin/env bash
# npm's postinstall: applies each patches/<package>+<version>.patch to node_modules/<package>, once (an
# applied patch is left alone). A patch for another version than the installed one fails the install: an
# upgrade must look again at whether the fix is still needed (docs/reliability.md says why each exists).
set -euo pipefail
cd "$(dirname "$0")/.."
for file in patches/*.patch; do
  name=$(basename "$file" .patch)
  package=${name%+*}
  version=${name##*+}
  dir=node_modules/$package
  installed=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$dir/package.json")
  if [ "$installed" != "$version" ]; then
    echo "$file is for $package $version, but $package $installed is installed" >&2
    exit 1
  fi
  if patch -d "$dir" -p1 -R -f -s --dry-run <"$file" >/dev/null 2>&1; then continue; fi
  patch -d "$dir" -p1 -f -s --no-backup-if-mismatch <"$file"
  echo "patched $package $version ($file)"
done
