#!/usr/bin/env bash
# Installs what cablefmu needs besides Go: gcc (cgo builds the FMU's Linux
# binary), mingw-w64 (cross-compiles its Windows DLL), python3 (the ctypes
# client and the FMU tests), xmllint (schema checks of model descriptions);
# with --studies Debian's Dask (python3-distributed), pandas and Matplotlib
# for the studies of the cablefmu Python package (/usr/bin/python3 sees
# them); with --test both and Wine, under which the test suite runs the
# Windows DLL, python3-jsonschema, with which it validates the example
# scenarios against the scenario schema, and Chromium, in which it opens
# the FMUs' documentation; with --engines g++ and Debian's ODE and Bullet,
# which scripts/bench-engines.sh runs beside the rigid-body cable (no part
# of cablefmu uses them). Debian/Ubuntu packages; runs apt only when a tool is missing,
# and waits for another apt or dpkg that holds the lock.
set -euo pipefail

if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go 1.26 or newer is required (https://go.dev/dl/); Debian's golang package is too old." >&2
	exit 1
fi
need=()
command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
if [ "${1:-}" = --test ]; then
	command -v wine >/dev/null 2>&1 || need+=(wine wine64)
	# Debian's validator checks the examples against the scenario schema.
	/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || need+=(python3-jsonschema)
	# Headless Chromium opens the documentation inside each FMU.
	command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ "${1:-}" = --engines ]; then
	command -v g++ >/dev/null 2>&1 || need+=(g++)
	command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
	pkg-config --exists ode 2>/dev/null || need+=(libode-dev)
	pkg-config --exists bullet 2>/dev/null || need+=(libbullet-dev)
fi
if [ "${1:-}" = --test ] || [ "${1:-}" = --studies ]; then
	if ! /usr/bin/python3 -c 'import distributed, pandas, matplotlib' >/dev/null 2>&1; then
		need+=(python3 python3-distributed python3-dask python3-pandas python3-matplotlib)
	fi
fi
if ((${#need[@]})); then
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
	# Another apt or dpkg (a second setup, unattended upgrades) holds the
	# package database's lock for a while: wait for it, up to five
	# minutes, instead of failing at once.
	waited=0
	while pgrep -x 'apt|apt-get|dpkg|unattended-upgr' >/dev/null 2>&1; do
		if ((waited == 0)); then echo "setup: waiting for another apt or dpkg to finish (up to 5 minutes)"; fi
		if ((waited >= 300)); then
			echo "setup: apt or dpkg has been busy for 5 minutes; trying anyway" >&2
			break
		fi
		sleep 5
		waited=$((waited + 5))
	done
	lock=(-o DPkg::Lock::Timeout=300)
	echo "setup: installing ${need[*]}"
	$sudo apt-get "${lock[@]}" update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get "${lock[@]}" install -y -qq "${need[@]}" >/dev/null
fi
go mod download
