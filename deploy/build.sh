#!/bin/sh
# `npm run build [-- OUT]` (OUT: dist, relative to the clone): the compiled layout the image runs (Dockerfile) and
# `npm run test:production` starts. The sources of tsconfig.build.json compiled by tsc to JavaScript with source maps,
# beside what that code reads from its own folders at run time (stylesheets, the XSL shim, SUNAT's schemas, rules and
# codes), bin/chasqui and package.json: the clone's tree with .js for .ts. node_modules is the caller's: the image
# installs the production dependencies, test:production links the clone's.
set -eu
cd "$(dirname "$0")/.."
out=${1:-dist}
rm -rf "$out"
tsc -p tsconfig.build.json --outDir "$out"
sources=$(node -p "require('./tsconfig.build.json').include.join(' ')")
# shellcheck disable=SC2086 # the folders, one word each
find $sources -type f ! -name '*.ts' | tar -cf - -T - bin sunat package.json package-lock.json | tar -xf - -C "$out"
