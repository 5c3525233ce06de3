# shellcheck shell=bash
# Shared helpers for the mm-remote scripts. Sourced, never run.
set -eu
MMR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MMR_BUILD=${MMR_BUILD:-$MMR_TOP/build}
MMR_TREE=${MMR_TREE:-$MMR_BUILD/linux}
MMR_LOCK=${MMR_LOCK:-/work/kbuild.lock}
[ -w "$(dirname "$MMR_LOCK")" ] || MMR_LOCK=$MMR_BUILD/kbuild.lock
# shellcheck source=../pin.conf
. "$MMR_TOP/pin.conf"
# One ccache per user, shared by every clone and worktree on the machine.
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mm-remote/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/}

MMR_T0=$(date +%s)
stage() { printf '==> [%4ss] %s\n' "$(( $(date +%s) - MMR_T0 ))" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Objdir for a flavour: build/obj-FLAVOUR, or build/obj-FLAVOUR-NAME for
# another tree (--tree DIR), so worktrees never share objects.
mmr_objdir() {
	if [ "$MMR_TREE" = "$MMR_BUILD/linux" ]; then
		echo "$MMR_BUILD/obj-$1"
	else
		echo "$MMR_BUILD/obj-$1-$(basename "$MMR_TREE")"
	fi
}

# Packages a fresh Debian 12 machine lacks; installed once, quietly.
MMR_DEBS="build-essential flex bison bc libelf-dev libssl-dev ccache
 qemu-system-x86 busybox-static cpio xz-utils gcc-multilib rsync kmod git"
need_debs() {
	local missing="" p
	for p in $MMR_DEBS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or apt-get install them)"
	stage "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null ||
		die "apt-get install failed for:$missing"
}

# Run a command holding the machine-wide kernel-build lock: two kernel
# builds at once on two cores only slow each other down.
locked() { flock "$MMR_LOCK" "$@"; }
