#!/usr/bin/env bash
# Loads and runs the Linux binary of an FMU on an older distribution:
# Debian 11 (glibc 2.31, older than the 2.34 that the Go toolchain's
# default link would need), in a chroot made with debootstrap, through the
# Python ctypes client. Needs root, network access to deb.debian.org and
# about 300 MB under out/; not part of the test suite (which checks the
# symbol versions instead, see build/exporter/export_test.go).
#
#   bash scripts/old-glibc.sh [out/Hoist.fmu]
set -euo pipefail
cd "$(dirname "$0")/.."
fmu=${1:-out/Hoist.fmu}
root=out/debian11
if [ "$(id -u)" -ne 0 ]; then
	echo "old-glibc: run as root (debootstrap and chroot)" >&2
	exit 1
fi
[ -f "$fmu" ] || go run ./build export -platforms linux64 -o "$fmu" examples/massless
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
if [ ! -x "$root/usr/bin/python3" ]; then
	debootstrap --variant=minbase --include=python3 bullseye "$root" http://deb.debian.org/debian
fi
rm -rf "$root/fmu" && mkdir -p "$root/fmu"
python3 -m zipfile -e "$fmu" "$root/fmu/unpacked"
cp -r examples/clients/python/cablefmu "$root/fmu/"
cat >"$root/fmu/run.py" <<'PY'
import platform, sys
sys.path.insert(0, "/fmu")
from cablefmu import fmi2
s = fmi2.FMU2Slave("/fmu/unpacked")
s.instantiate()
s.initialize(0.0, 10.0)
for i in range(600):
    s.do_step(i / 60, 1 / 60)
print("%s %s: cable.tension after 10 s = %.3f N" % (platform.libc_ver() + (s.get_real([s.vr("cable.tension")])[0],)))
s.terminate()
s.free()
PY
# The Go runtime and the plugins' Python read /proc.
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
chroot "$root" /usr/bin/python3 /fmu/run.py
