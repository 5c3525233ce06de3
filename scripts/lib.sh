# shellcheck shell=bash
# Shared helpers for the mm-remote scripts. Sourced, never run.
set -eu -o pipefail
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
 qemu-system-x86 busybox-static cpio xz-utils gcc-multilib rsync kmod git
 python3"
need_debs() {
	local missing="" p
	# Once per run: the scripts a command calls inherit the answer.
	for p in $MMR_DEBS; do
		case " ${MMR_DEBS_OK:-} " in *" $p "*) ;; *) missing=1; break ;; esac
	done
	[ -n "$missing" ] || return 0
	missing=""
	for p in $MMR_DEBS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	if [ -z "$missing" ]; then export MMR_DEBS_OK="$(echo ${MMR_DEBS_OK:-} $MMR_DEBS)"; return 0; fi
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or apt-get install them)"
	stage "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null ||
		die "apt-get install failed for:$missing"
	export MMR_DEBS_OK="$(echo ${MMR_DEBS_OK:-} $MMR_DEBS)"
}

# The guest architecture: mmr_arch x86_64|arm64 sets what building and
# booting that guest takes (the arm64 cross gcc is the one
# scripts/mmr-crossbuild unpacks into build/cross/toolchain).
mmr_arch() {
	MMR_ARCH=$1
	case "$1" in
	x86_64)
		MMR_OBJPFX="" MMR_CFGDIR="" MMR_KARCH="" MMR_CROSS="" MMR_KTARGET=bzImage
		MMR_KIMAGE=arch/x86/boot/bzImage ;;
	arm64)
		MMR_OBJPFX=arm64- MMR_CFGDIR=arm64/ MMR_KARCH=arm64 MMR_CROSS=aarch64-linux-gnu-
		MMR_KTARGET=Image MMR_KIMAGE=arch/arm64/boot/Image
		MMR_DEBS="$MMR_DEBS qemu-system-arm binutils-aarch64-linux-gnu libgcc-12-dev-arm64-cross libc6-dev-arm64-cross"
		MMR_DEBS="$MMR_DEBS binutils-arm-linux-gnueabihf libgcc-12-dev-armhf-cross libc6-dev-armhf-cross"
		case ":$PATH:" in *":$MMR_BUILD/cross/toolchain/usr/bin:"*) ;;
		*) export PATH="$MMR_BUILD/cross/toolchain/usr/bin:$PATH" ;; esac
		if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v arm-linux-gnueabihf-gcc >/dev/null; then
			"$MMR_TOP/scripts/mmr-crossbuild" --arch arm64 --arch arm --toolchain-only >&2 ||
				die "cannot unpack the arm64/arm cross gcc (scripts/mmr-crossbuild)"
		fi ;;
	*) die "unknown architecture $1 (x86_64 or arm64)" ;;
	esac
	export MMR_ARCH MMR_KARCH MMR_CROSS
}
# make in the kernel tree for MMR_ARCH, objects in $obj (kmake ARGS...).
kmake() {
	nice -n 10 make -s -C "$MMR_TREE" O="$obj" ${MMR_KARCH:+ARCH=$MMR_KARCH} \
		${MMR_CROSS:+CROSS_COMPILE=$MMR_CROSS} CC="ccache ${MMR_CROSS}gcc" HOSTCC="ccache gcc" "$@"
}

# Run a command holding the machine-wide kernel-build lock: two kernel
# builds at once on two cores only slow each other down.
locked() { flock "$MMR_LOCK" "$@"; }

# The one initramfs builder: the kernel's own usr/gen_init_cpio, built from
# the pinned tree.  mmr_cpio DIR OUT [EXTRA_SPEC_LINE...] archives DIR's
# contents (root-owned, modes kept) plus any extra gen_init_cpio lines.
mmr_cpio() {
	local dir=$1 out=$2 gen=$MMR_BUILD/tools/gen_init_cpio src
	shift 2
	src=$MMR_BUILD/linux/usr/gen_init_cpio.c
	[ -f "$src" ] || die "no $src: run scripts/mmr-tree first"
	if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
		mkdir -p "$(dirname "$gen")"
		gcc -O2 -o "$gen" "$src" || die "cannot build $gen from $src"
	fi
	{
		(cd "$dir" && find . -mindepth 1 -printf '%y %m %P\n' | LC_ALL=C sort -k3) |
			while read -r type mode path; do
				case "$type" in
				d) echo "dir /$path $mode 0 0" ;;
				l) echo "slink /$path $(readlink "$dir/$path") 777 0 0" ;;
				f) echo "file /$path $dir/$path $mode 0 0" ;;
				esac
			done
		[ $# = 0 ] || printf '%s\n' "$@"
	} >"$out.list"
	"$gen" -t 0 "$out.list" >"$out.tmp" || die "gen_init_cpio failed on $out.list"
	mv "$out.tmp" "$out"
	rm -f "$out.list"
}

# The one place that knows the pinned source.  mmr_download VERSION prints
# the .deb's path (downloaded once into build/dl); mmr_fetch_source prints
# the tarball of the pinned version after checking both sha256 sums of
# pin.conf; mmr_series_hash names the state of patches/.
mmr_download() {
	local ver=$1 dl=$MMR_BUILD/dl deb
	deb=$dl/${MMR_PKG}_${1}_all.deb
	mkdir -p "$dl"
	if [ ! -f "$deb" ]; then
		stage "downloading $MMR_PKG=$ver"
		rm -f "$dl"/"${MMR_PKG}"_*_all.deb.part
		(cd "$dl" && apt-get download -q "$MMR_PKG=$ver" >/dev/null 2>&1) || {
			apt-get update -qq >/dev/null 2>&1 || true
			(cd "$dl" && apt-get download -q "$MMR_PKG=$ver" >/dev/null 2>&1) || {
				echo "error: $MMR_PKG $ver is not served. Served:" >&2
				apt-cache madison "$MMR_PKG" | awk '{print "  " $3}' >&2
				die "pin a served version with: scripts/mmr-repin VERSION"
			}
		}
		mv "$dl/${MMR_PKG}_$(echo "$ver" | sed 's/:/%3a/')_all.deb" "$deb" 2>/dev/null || true
		[ -f "$deb" ] || die "apt-get download left no $deb"
	fi
	echo "$deb"
}
mmr_tarball() {
	local deb=$1 tar=$2
	if [ ! -f "$tar" ]; then
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$MMR_PKG.tar.xz" >"$tar.tmp" ||
			{ rm -f "$tar.tmp"; die "cannot extract the source tarball from $deb: delete it and retry"; }
		mv "$tar.tmp" "$tar"
	fi
	echo "$tar"
}
mmr_fetch_source() {
	local deb tar
	deb=$(mmr_download "$MMR_VERSION")
	echo "$MMR_DEB_SHA256  $deb" | sha256sum -c --quiet - >&2 ||
		die "sha256 of $deb does not match pin.conf: delete it, or re-pin with scripts/mmr-repin VERSION"
	tar=$(mmr_tarball "$deb" "$MMR_BUILD/dl/$MMR_PKG-$MMR_VERSION.tar.xz")
	echo "$MMR_TAR_SHA256  $tar" | sha256sum -c --quiet - >&2 ||
		die "sha256 of $tar does not match pin.conf (MMR_TAR_SHA256): delete it and retry"
	echo "$tar"
}
# mmr_patch_sum NAME: the short sum of patches/NAME (scripts/mmr-tree and
# mmr-export record it per patch, so only changed patches are re-applied).
mmr_patch_sum() { sha256sum "$MMR_TOP/patches/$1" | cut -c1-16; }
mmr_series_hash() {
	(cd "$MMR_TOP/patches" && cat series $(grep -v '^\s*#' series | grep -v '^\s*$')) |
		sha256sum | cut -c1-16
}

# The one way a host program for the guest is built: static, against the
# uapi headers of the kernel built in OBJ, with the gcc of MMR_ARCH (or
# MMR_CC).  mmr_static_cc OBJ OUT SRC [CFLAGS...]
mmr_static_cc() {
	local obj=$1 out=$2 src=$3
	shift 3
	"${MMR_CC:-${MMR_CROSS:-}gcc}" -static -O2 -Wall -isystem "$obj/usr/include" -I"$MMR_TOP/bench" \
		-o "$out" "$src" -lpthread "$@" || die "cannot build $src"
}
