# tests/lib/deb.sh: build the libpam-dropgroups package from the working
# tree (sourced by the tests that install it).

# build_deb: dpkg-buildpackage on a copy of the tree; sets DEB.
build_deb() {
	local src=$T/src/pam-dropgroups
	mkdir -p "$src"
	# the working tree, without build outputs
	tar -C "$TOP" --exclude=./build --exclude=./.git -c . | tar -C "$src" -x
	(cd "$src" && dpkg-buildpackage -us -uc -b) > "$T/build.log" 2>&1 ||
		{ tail -n 30 "$T/build.log"; fail "dpkg-buildpackage failed"; }
	DEB=$(ls "$T"/src/libpam-dropgroups_*.deb)
	echo "built $(basename "$DEB")"
}
