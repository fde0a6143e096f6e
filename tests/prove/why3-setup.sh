#!/bin/sh
# The Why3 set-up of `make prove`, in DIR (build/prove/why3): its own
# configuration file (why3.conf) and data directory (data/), so that
# nothing is read from or written to $HOME.  Why3 1.5.1 knows Z3 and
# CVC4 but not cvc5: data/ is /usr/share/why3 (symlinks) with cvc5 added
# to its prover detection, and a driver for it (cvc5.conf, cvc5.drv).
#   tests/prove/why3-setup.sh DIR
# Use it as WHY3CONFIG=DIR/why3.conf WHY3DATA=DIR/data.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
sys=$(why3 --print-datadir)
rm -rf "$dir"
mkdir -p "$dir/data/drivers"
for f in "$sys"/*; do
	case ${f##*/} in
	drivers | provers-detection-data.conf) ;;
	*) ln -s "$f" "$dir/data/" ;;
	esac
done
for f in "$sys"/drivers/*; do
	ln -s "$f" "$dir/data/drivers/"
done
cp "$here/cvc5.drv" "$dir/data/drivers/cvc5.drv"
dir=$(cd "$dir" && pwd)
{
	cat "$sys/provers-detection-data.conf"
	echo
	sed "s|\"DRIVER\"|\"$dir/data/drivers/cvc5.drv\"|" "$here/cvc5.conf"
} > "$dir/data/provers-detection-data.conf"
WHY3DATA=$dir/data why3 config detect -C "$dir/why3.conf" > "$dir/detect.log" 2>&1 || {
	cat "$dir/detect.log" >&2
	exit 1
}
# the provers make prove names must all be there
for p in Z3 CVC4 CVC5; do
	grep -q "^Found prover $p version .*, OK\.$" "$dir/detect.log" || {
		echo "why3-setup: no usable $p (why3 config detect said:)" >&2
		cat "$dir/detect.log" >&2
		exit 1
	}
done
