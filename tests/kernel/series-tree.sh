#!/bin/bash
# series-tree.sh init|export|path VERSION
#
# The scratch git tree that the patches in kernel/VERSION are made in,
# kept in the cache ($KERNEL_CACHE/git/VERSION), never in this repository.
#
#   init VERSION    (re)create it: Debian's pristine linux-source-VERSION
#                   as commit "base" (fixed author and date, so that the
#                   commit ids are the same on every machine), then
#                   `git am` of every patch in kernel/VERSION/series, with
#                   the committer date set to the author date; for 6.12,
#                   the cover letter's subject and text become the branch
#                   description
#   export VERSION  `git format-patch` base..HEAD back into kernel/VERSION
#                   (subject prefix "PATCH v3"), rewrite its series file;
#                   for 6.12 also kernel/0000-cover-letter.patch, from the
#                   branch description (`git branch --edit-description`)
#   path VERSION    print the tree's path
#
# Edit the series in the tree with ordinary git (commit --amend, rebase
# -i, commit --fixup), then export and commit the result here.  An export
# right after an init gives back the same files, except for the cover
# letter's Date.
set -euo pipefail
kt_name="series-tree"
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

cmd=${1:?usage: series-tree.sh init|export|path VERSION}
kt_version "${2:?usage: series-tree.sh init|export|path VERSION}"
tree=$KERNEL_CACHE/git/$kt_ver
cover=$kt_top/kernel/0000-cover-letter.patch
cover_version=6.12 # the cover letter describes the series for this one
prefix="PATCH v3"

# Commits in the tree are made as whoever makes them: the identity git is
# configured with for this repository.  The patches carry no
# Signed-off-by; the submitter adds their own (kernel/README).
git_name=$(git -C "$kt_top" config user.name) ||
	kt_die "no git user.name: configure your own identity first"
git_email=$(git -C "$kt_top" config user.email) ||
	kt_die "no git user.email: configure your own identity first"
git_t() {
	git -C "$tree" -c user.name="$git_name" -c user.email="$git_email" \
		-c core.abbrev=12 "$@"
}

case $cmd in
path)
	echo "$tree"
	;;
init)
	kt_lock build
	pristine=$(kt_pristine)
	kt_say "copying $pristine to $tree"
	rm -rf "$tree"
	mkdir -p "$(dirname "$tree")"
	cp -a "$pristine" "$tree"
	rm -f "$tree/.dg-extracted"
	git -C "$tree" init -q -b series
	git_t config core.autocrlf false
	git_t config advice.addIgnoredFile false
	# -f: the tarball is exactly the source, some of which matches the
	# tree's own .gitignore files.
	git_t add -A -f .
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git_t commit -q -m "Debian $kt_pkg $kt_srcver"
	git_t tag base
	if [ -r "$kt_series/series" ]; then
		kt_patches
		for p in "${kt_patch_list[@]}"; do
			kt_say "git am $(basename "$p")"
			git_t am -q --committer-date-is-author-date "$p"
		done
	fi
	if [ "$kt_ver" = "$cover_version" ] && [ -r "$cover" ]; then
		# The description: the subject without "[PATCH v2 0/N] ", a
		# blank line, the text up to git's shortlog ("Name (N):").
		{
			# the Subject header, unfolded
			awk '/^Subject: / { s = $0; getline
					     while (/^ /) { s = s $0; getline }
					     print s; exit }' "$cover" |
				sed 's/^Subject: \[[^]]*\] //'

			echo
			awk 'body && /^[^ \t].* \([0-9]+\):$/ { exit }
			     body { print }
			     !body && /^$/ { body = 1 }' "$cover" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
		} > "$tree/.git/description-series"
		git_t config branch.series.description "$(cat "$tree/.git/description-series")"
	fi
	git_t log --oneline base~0..HEAD >&2
	echo "$tree"
	;;
export)
	[ -d "$tree/.git" ] || kt_die "no tree at $tree (series-tree.sh init $kt_ver)"
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	args=(--subject-prefix="$prefix" --no-signature -o "$out")
	if [ "$kt_ver" = "$cover_version" ]; then
		args+=(--cover-letter --cover-from-description=subject)
	fi
	git_t format-patch -q "${args[@]}" base..HEAD
	mkdir -p "$kt_series"
	rm -f "$kt_series"/[0-9][0-9][0-9][0-9]-*.patch
	if [ -e "$out/0000-cover-letter.patch" ]; then
		mv "$out/0000-cover-letter.patch" "$cover"
	fi
	(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch) > "$kt_series/series"
	mv "$out"/*.patch "$kt_series/"
	kt_say "exported $(wc -l < "$kt_series/series") patches to $kt_series"
	;;
*)
	kt_die "unknown command $cmd"
	;;
esac
