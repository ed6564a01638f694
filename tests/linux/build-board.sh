#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Build the Linux 6.1 test kernel for a board other than QEMU virt, in its
# own directory, with tests/linux/build.sh unchanged: the board's kernel
# config is tests/linux/kernel.config + tests/linux/kernel-<board>.config.
#
# build.sh reads its config fragments, init.c and workload.c from
# its own directory, so this script gives it a directory of its own
# (<builddir>/script: links to those files, and a kernel.config that is the
# concatenation). Every cache key of build.sh then covers the board's
# fragment too, and the virt kernels' keys (build/linux, build/linux-6.12)
# stay as they are.
#
# The kernel source and perf do not depend on the kernel
# config: if <repo>/build/linux (the virt 6.1 build) has them, the board
# build reads that source tree (out-of-tree objects: it is not written) and
# takes its perf, with their stamps, instead of extracting and building
# them again.
#
# Usage: tests/linux/build-board.sh <board> [builddir]
#   default builddir: <repo>/build/linux-<board>
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
board=${1:?usage: $0 <board> [builddir]}
build=${2:-$repo/build/linux-$board}
fragment=$here/kernel-$board.config
[[ -f $fragment ]] || { echo "[linux] error: no $fragment" >&2; exit 1; }

mkdir -p "$build/script"
build=$(cd "$build" && pwd)
stage=$build/script
for f in build.sh init.c workload.c; do
	ln -sfn "$here/$f" "$stage/$f"
done
cat "$here/kernel.config" "$fragment" > "$stage/kernel.config.new"
cmp -s "$stage/kernel.config.new" "$stage/kernel.config" 2>/dev/null &&
	rm "$stage/kernel.config.new" || mv "$stage/kernel.config.new" "$stage/kernel.config"

virt=$repo/build/linux
if [[ ! -f $build/.stamp-source && -f $virt/.stamp-source && -f $virt/.stamp-patches &&
	-f $virt/.stamp-perf && -f $virt/perf ]]; then
	ln -sfn "$(cd "$virt" && pwd -P)/linux-source-6.1" "$build/linux-source-6.1"
	for f in .stamp-source .stamp-patches .stamp-perf applied.patch perf; do
		[[ ! -e $virt/$f ]] || cp "$virt/$f" "$build/$f"
	done
fi
exec "$stage/build.sh" --kver 6.1 "$build"
