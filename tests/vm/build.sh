#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds what the VM tests boot: Debian's own kernel (the full amd64 flavour:
# the cloud one lacks uinput, sound, rc and gadget drivers), unpacked without
# touching /boot, and an initramfs holding busybox, the modules the tests
# need and tests/vm/init; and Debian's udev unpacked (udevroot/: its daemon
# runs in the guest for the libusb hotplug test; nothing is installed).
# Output in build-vm/ (kernel, initrd.gz, udevroot/); reused when present.
# Usage: tests/vm/build.sh [OUTDIR]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/../../build-vm}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ ! -x "$OUT/udevroot/bin/udevadm" ]; then
	(cd "$OUT" && rm -rf udevroot udev_*.deb && apt-get download udev >/dev/null 2>&1 &&
		dpkg-deb -x udev_*.deb udevroot && rm -f udev_*.deb) ||
		{ echo "build.sh: cannot fetch Debian's udev" >&2; exit 1; }
fi
# Loaded at boot:
MODULES="virtio_pci 9pnet_virtio 9p evdev uinput snd-aloop rc-loopback ir-nec-decoder ir-rc5-decoder configfs dummy_hcd libcomposite usb_f_fs cuse"
# In the initrd but loaded by a test when it wants them (init copies the
# initrd's modules to the guest's /tmp/vm-modules: modprobe -d /tmp/vm-modules):
ON_DEMAND="mceusb"
# An initrd made from another module list or another init is rebuilt.
stamp="$MODULES | $ON_DEMAND | $(cksum <"$HERE/init")"
[ -f "$OUT/initrd.gz" ] && [ -f "$OUT/kernel" ] && [ "$(cat "$OUT/initrd.stamp" 2>/dev/null)" = "$stamp" ] &&
	exit 0

cd "$OUT"
pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$pkg" ] || { echo "build.sh: no linux-image package found" >&2; exit 1; }
rm -rf kroot && mkdir kroot
apt-get download "$pkg" >/dev/null 2>&1
dpkg-deb -x "${pkg}"_*.deb kroot
kver=$(ls kroot/lib/modules)
depmod -b kroot "$kver"
cp kroot/boot/vmlinuz-"$kver" kernel

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/host" "$root/lib/modules/$kver"
cp /bin/busybox "$root/bin/busybox"
for m in $MODULES $ON_DEMAND; do
	modprobe -d kroot -S "$kver" --show-depends "$m" | awk '$1=="insmod"{print $2}' |
		while read -r f; do
			rel=${f#"$OUT"/kroot/}
			mkdir -p "$root/$(dirname "$rel")"
			cp -n "$f" "$root/$rel"
		done
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
	cp "kroot/lib/modules/$kver/$f" "$root/lib/modules/$kver/"
done
depmod -b "$root" "$kver"
sed "s/@MODULES@/$MODULES/" "$HERE/init" >"$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >initrd.gz
rm -rf kroot "${pkg}"_*.deb
echo "$stamp" >initrd.stamp
echo "build.sh: kernel $kver, initrd $(du -h initrd.gz | cut -f1)"
