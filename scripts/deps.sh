#!/usr/bin/env bash
# deps.sh - installs the Debian 12 packages a make target needs: `scripts/deps.sh test`,
# `scripts/deps.sh bench`, `scripts/deps.sh all`. As root it runs `apt-get update` once and
# installs what is missing; otherwise it names what is missing and how to install it.
# The library itself needs only a C11 compiler, make, libc and libm.
set -u

want=${1:-all}
test_pkgs="make gcc libc6-dev pkg-config cmake libsimde-dev qemu-user gcc-aarch64-linux-gnu assimp-testmodels
  libc6-dev-arm64-cross libpng-dev clang libclang-rt-14-dev valgrind cppcheck"
demo_pkgs="make gcc libc6-dev libpng-dev assimp-testmodels"
bench_pkgs="make gcc g++ libc6-dev pkg-config hyperfine libbullet-dev gnuplot-nox valgrind"

case "$want" in
test) pkgs=$test_pkgs ;;
bench) pkgs=$bench_pkgs ;;
demo) pkgs=$demo_pkgs ;;
all) pkgs="$test_pkgs $bench_pkgs $demo_pkgs" ;;
*)
    echo "usage: $0 test|bench|demo|all" >&2
    exit 2
    ;;
esac

missing=""
for p in $pkgs; do
    case " $missing " in *" $p "*) continue ;; esac
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    [ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || { echo "deps: apt-get update failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
        { echo "deps: apt-get install$missing failed" >&2; exit 1; }
    exit 0
fi

echo "deps: missing Debian packages for '$want':$missing" >&2
echo "deps: run this script as root (it installs them), or: sudo apt-get install$missing" >&2
exit 1
