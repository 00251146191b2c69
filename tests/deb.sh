# tests/deb.sh — the Debian package: debian/changelog has the version of
# version.h behind an epoch that sorts above Debian's own flashbench, the
# maintainer is the README's, and the scripts' man pages render; then (once
# per suite, with the plain build, when dpkg-buildpackage, debhelper and
# lintian are installed) make deb builds it without leaving anything in the
# tree; unpacked (dpkg -x) it holds every file it should, the README, the
# guides of doc/ and the changelog, every path its commands and pages name, the installed
# flashbench runs on sim:sd-4m, flashbench-erase knows its name and
# version, the completion works through bash-completion's loader; apt,
# in an empty root, installs it over a package with Debian's name and
# version and keeps it through `apt upgrade` from a repository that holds
# that version; and lintian reports no error.
. tests/lib.sh

version=$(sed -n 's/^#define FLASHBENCH_VERSION "\(.*\)"/\1/p' lib/version.h)
deb_version=$(sed -n '1s/^flashbench (\([^)]*\)).*/\1/p' debian/changelog)
[ -n "$version" ] && [ "${deb_version#*:}" = "$version" ] && pass "deb: debian/changelog has the version of version.h" ||
	fail "deb: debian/changelog has the version of version.h" "changelog '$deb_version', version.h '$version'"
# Debian's flashbench is 62-1+b1 (bookworm); ours must sort above it and
# above any later revision of the classic tool, or apt replaces it
if ! command -v dpkg > /dev/null; then
	skip "deb: the package version sorts above Debian's flashbench 62-1+b1" "dpkg is not installed"
elif dpkg --compare-versions "$deb_version" gt 62-1+b1 && dpkg --compare-versions "$deb_version" gt 99-9 &&
	grep -q "$deb_version" debian/README.Debian && grep -q "^Its version is $deb_version" debian/README.Debian &&
	grep -q "epoch" README; then
	pass "deb: the package version sorts above Debian's flashbench 62-1+b1 (and README.Debian says why)"
else
	fail "deb: the package version sorts above Debian's flashbench 62-1+b1" "version $deb_version"
fi
# the maintainer is the contact the README gives; Homepage and Vcs fields
# only where the README names them
contact=$(awk '/^Contact$/ { c = 1; next } c && /^-+$/ { next } c && NF { print; exit }' README)
maint=$(sed -n 's/^Maintainer: //p' debian/control)
fields() { sed -nE 's/^(Homepage|Vcs-[A-Za-z]+): /\1 /p' "$1" | sort; }
if [ -n "$contact" ] && [ "$maint" = "$contact" ] && grep -q "^ -- $contact  " debian/changelog &&
	[ "$(fields debian/control)" = "$(fields README)" ]; then
	pass "deb: Maintainer, changelog, Homepage and Vcs are the README's ($contact)"
else
	fail "deb: Maintainer, changelog, Homepage and Vcs are the README's" \
		"README '$contact', control '$maint' $(fields debian/control | tr '\n' ' ')"
fi
if command -v groff > /dev/null; then
	for m in flashbench-report.1 flashbench-open-au-sweep.1; do
		if LC_ALL=C.UTF-8 groff -ww -man -Tutf8 "$m" > "$TMP/man.txt" 2> "$TMP/groff.err" && [ ! -s "$TMP/groff.err" ] &&
			grep -q "flashbench $version" "$m" && [ "$(wc -l < "$TMP/man.txt")" -gt 20 ]; then
			pass "man page $m renders without warnings, names version $version"
		else
			fail "man page $m renders without warnings, names version $version" "$(head -3 "$TMP/groff.err")"
		fi
	done
else
	skip "man pages of the scripts render without warnings" "groff is not installed"
fi

ALL="deb: make deb builds a package and leaves the tree clean|deb: the package holds every file|deb: every path its commands and pages name is in the package|deb: the installed flashbench runs on sim:sd-4m|deb: flashbench-erase --help and --version name flashbench-erase|deb: completion through bash-completion's loader|deb: apt keeps it over Debian's flashbench through apt upgrade|deb: lintian reports no error"
[ -n "${FLASHBENCH_NESTED:-}" ] && skip_all "inside a nested test run"
[ "$(cd "$(dirname "$FB")" && pwd -P)" = "$(pwd -P)" ] || skip_all "runs once, with the plain build"
for tool in dpkg-buildpackage dh lintian dpkg git; do
	command -v $tool > /dev/null || skip_all "$tool is not installed (.ci/run installs debhelper and lintian)"
done
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || skip_all "not a git checkout (make deb packs the files git tracks)"
unset MAKEFLAGS MFLAGS MAKELEVEL

mkdir -p "$TMP/deb" "$TMP/root"
before=$(git status --porcelain --ignored)
make -s deb DEBDIR="$TMP/deb" > "$TMP/deb.out" 2> "$TMP/deb.err"
rc=$?
deb=$(ls "$TMP"/deb/flashbench_"$version"_*.deb 2> /dev/null)
after=$(git status --porcelain --ignored)
if [ $rc = 0 ] && [ -f "$deb" ] && [ "$before" = "$after" ]; then
	pass "deb: make deb builds a package and leaves the tree clean"
else
	fail "deb: make deb builds a package and leaves the tree clean" \
		"status $rc, $(tail -3 "$TMP/deb.err" | tr '\n' ' ') $(diff <(echo "$before") <(echo "$after") | head -3 | tr '\n' ' ')"
	exit 0
fi

dpkg -x "$deb" "$TMP/root"
missing=""
for f in usr/bin/flashbench usr/bin/flashbench-erase usr/bin/flashbench-report usr/bin/flashbench-open-au-sweep \
	usr/share/man/man1/flashbench.1.gz usr/share/man/man1/flashbench-erase.1.gz \
	usr/share/man/man1/flashbench-report.1.gz usr/share/man/man1/flashbench-open-au-sweep.1.gz \
	usr/share/bash-completion/completions/flashbench usr/share/bash-completion/completions/flashbench-erase \
	usr/share/bash-completion/completions/flashbench-report usr/share/bash-completion/completions/flashbench-open-au-sweep \
	usr/share/flashbench/lib.sh usr/share/doc/flashbench/copyright usr/share/doc/flashbench/README.Debian; do
	[ -e "$TMP/root/$f" ] || missing="$missing $f"
done
for p in scripts/programs/*.fbp; do
	cmp -s "$p" "$TMP/root/usr/share/flashbench/programs/${p##*/}" || missing="$missing programs/${p##*/}"
done
zcat "$TMP/root/usr/share/doc/flashbench/README.gz" 2> /dev/null | cmp -s - README || missing="$missing README.gz"
for d in doc/*.md; do
	zcat "$TMP/root/usr/share/doc/flashbench/${d#doc/}.gz" 2> /dev/null | cmp -s - "$d" || missing="$missing ${d#doc/}.gz"
done
zcat "$TMP/root/usr/share/doc/flashbench/changelog.gz" 2> /dev/null | cmp -s - debian/changelog ||
	missing="$missing changelog.gz"
[ -z "$missing" ] && pass "deb: the package holds every file (README, the guides of doc/ and changelog in /usr/share/doc/flashbench)" ||
	fail "deb: the package holds every file" "missing:$missing"

missing=$(named_paths "$TMP/root")
[ -z "$missing" ] && pass "deb: every path its commands and pages name is in the package" ||
	fail "deb: every path its commands and pages name is in the package" "$(echo "$missing" | tr '\n' ' ')"

if "$TMP/root/usr/bin/flashbench" -a sim:sd-4m > "$TMP/align" 2> "$TMP/err" && cmp -s "$TMP/align" tests/golden/align-sd-4m.out &&
	[ "$("$TMP/root/usr/bin/flashbench" --version)" = "$("$FB" --version)" ]; then
	pass "deb: the installed flashbench runs on sim:sd-4m"
else
	fail "deb: the installed flashbench runs on sim:sd-4m" "$(head -3 "$TMP/err") $(diff tests/golden/align-sd-4m.out "$TMP/align" | head -3)"
fi

if "$TMP/root/usr/bin/flashbench-erase" --help > "$TMP/ehelp" && grep -q '^Usage: flashbench-erase DEVICE START LENGTH' "$TMP/ehelp" &&
	! grep -qE '(^|[^-])erase DEVICE' "$TMP/ehelp" &&
	[ "$("$TMP/root/usr/bin/flashbench-erase" --version)" = "flashbench-erase (flashbench) $version" ]; then
	pass "deb: flashbench-erase --help and --version name flashbench-erase"
else
	fail "deb: flashbench-erase --help and --version name flashbench-erase" "$(head -2 "$TMP/ehelp" | tr '\n' ' ')"
fi

# bash-completion finds the installed file by the command's name and
# sources it inside a function (its globals must survive that)
if [ -r /usr/share/bash-completion/bash_completion ]; then
	bad=""
	export PATH="$TMP/root/usr/bin:$PATH"
	got=$(complete_loaded "$TMP/root/usr/share" "flashbench-report --" | tr '\n' ' ')
	[ "$got" = "--write --preserve --help --version " ] || bad="$bad flashbench-report -- gave '$got';"
	got=$(complete_loaded "$TMP/root/usr/share" "flashbench-open-au-sweep --r" | tr '\n' ' ')
	[ "$got" = "--random " ] || bad="$bad flashbench-open-au-sweep --r gave '$got';"
	got=$(complete_loaded "$TMP/root/usr/share" "flashbench -a sim:u" | tr '\n' ' ')
	[ "$got" = "usb-12m " ] || bad="$bad flashbench -a sim:u gave '$got';"
	mkdir -p "$TMP/pl" && : > "$TMP/pl/a.svg" && : > "$TMP/pl/b.txt"
	got=$(complete_loaded "$TMP/root/usr/share" "flashbench -a sim:sd-4m --plot $TMP/pl/" | tr '\n' ' ')
	[ "$got" = "$TMP/pl/a.svg " ] || bad="$bad --plot DIR/ gave '$got';"
	[ -z "$bad" ] && pass "deb: completion through bash-completion's loader" ||
		fail "deb: completion through bash-completion's loader" "$bad"
else
	skip "deb: completion through bash-completion's loader" "bash-completion is not installed (.ci/run installs it)"
fi

# apt in an empty root (no chroot: dpkg --root, apt's Dir), offline: a
# package with Debian's name and version, built here (Debian's own .deb is
# used too when apt's cache holds it), in a local repository.
apt_root() { # apt_root DIR: an empty root for apt and dpkg, with what $deb depends on
	local r=$1 p
	mkdir -p "$r"/var/lib/dpkg/{info,updates,triggers} "$r"/var/lib/apt/lists/partial "$r"/var/log/apt \
		"$r"/var/cache/apt/archives/partial "$r"/etc/apt/{apt.conf.d,preferences.d,sources.list.d}
	: > "$r/var/lib/dpkg/available"
	: > "$r/var/lib/dpkg/status"
	for p in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g'); do
		printf 'Package: %s\nStatus: install ok installed\nMaintainer: the host\nArchitecture: %s\nVersion: %s\nDescription: the host'"'"'s %s\n\n' \
			"$p" "$(dpkg-query -W -f '${Architecture}' "$p")" "$(dpkg-query -W -f '${Version}' "$p")" "$p" \
			>> "$r/var/lib/dpkg/status"
	done
	echo "deb [trusted=yes] file:$TMP/repo ./" > "$r/etc/apt/sources.list"
	cat > "$r/apt.conf" <<CONF
Dir "$r/";
Dir::State::status "$r/var/lib/dpkg/status";
Dir::Etc "$r/etc/apt/";
DPkg::Options { "--root=$r"; "--force-script-chrootless"; };
APT::Sandbox::User "root";
Debug::NoLocking "true";
CONF
}
# relabel DEB VERSION OUT: the same package under another version
relabel() {
	rm -rf "$TMP/relabel" && dpkg-deb -R "$1" "$TMP/relabel" &&
		sed -i "s/^Version: .*/Version: $2/" "$TMP/relabel/DEBIAN/control" &&
		dpkg-deb --root-owner-group -b "$TMP/relabel" "$3" > /dev/null
}
# debian_standin OUT: flashbench 62-1+b1 with the files Debian's holds
debian_standin() {
	local s=$TMP/standin
	mkdir -p "$s/DEBIAN" "$s/usr/bin" "$s/usr/share/doc/flashbench"
	printf 'Package: flashbench\nVersion: 62-1+b1\nArchitecture: %s\nMaintainer: tests/deb.sh <nobody@localhost>\nDepends: libc6\nDescription: stand-in for Debian'"'"'s flashbench 62-1+b1\n built by tests/deb.sh with its name, version and files\n' \
		"$(dpkg --print-architecture)" > "$s/DEBIAN/control"
	printf '#!/bin/sh\necho "classic flashbench (stand-in)"\n' > "$s/usr/bin/flashbench"
	cp "$s/usr/bin/flashbench" "$s/usr/bin/flashbench-erase"
	chmod 755 "$s/usr/bin/flashbench" "$s/usr/bin/flashbench-erase"
	echo "classic README" | gzip -n > "$s/usr/share/doc/flashbench/README.gz"
	echo "stand-in" > "$s/usr/share/doc/flashbench/copyright"
	dpkg-deb --root-owner-group -b "$s" "$1" > /dev/null
}
# upgrade_keeps DEBIAN_DEB OURS: in a new root, Debian's package installed,
# ours installed over it with apt (-y refuses a downgrade), then apt update
# and upgrade from the repository that holds Debian's: prints the version
# installed at the end (or why apt failed)
upgrade_keeps() {
	local r=$TMP/aptroot
	rm -rf "$r" "$TMP/repo" && mkdir -p "$TMP/repo" && cp "$1" "$TMP/repo/" &&
		(cd "$TMP/repo" && dpkg-scanpackages -m . /dev/null > Packages 2> /dev/null) && apt_root "$r"
	export APT_CONFIG=$r/apt.conf
	{ apt-get update && apt-get install -y flashbench=62-1+b1 && apt-get install -y "$2" &&
		apt-get update && apt-get -y upgrade && apt-get -y dist-upgrade; } > "$TMP/apt.log" 2>&1 ||
		{ echo "apt failed: $(grep -E '^E:' "$TMP/apt.log" | head -2 | tr '\n' ' ')"; unset APT_CONFIG; return; }
	unset APT_CONFIG
	dpkg-query --root="$r" -W -f '${Version}' flashbench
	[ -x "$r/usr/bin/flashbench-report" ] && "$r/usr/bin/flashbench" --version > /dev/null && echo " (ours)"
}
if ! command -v apt-get > /dev/null || ! command -v dpkg-scanpackages > /dev/null; then
	skip "deb: apt keeps it over Debian's flashbench through apt upgrade" "apt-get or dpkg-scanpackages is missing"
else
	bad=""
	debian_standin "$TMP/flashbench_62-1+b1_standin.deb"
	debs=("$TMP/flashbench_62-1+b1_standin.deb")
	real=$(ls /var/cache/apt/archives/flashbench_62-1+b1_*.deb 2> /dev/null | head -1)
	[ -n "$real" ] && debs+=("$real")
	for d in "${debs[@]}"; do
		got=$(upgrade_keeps "$d" "$deb")
		[ "$got" = "$deb_version (ours)" ] || bad="$bad over ${d##*/}: $got;"
	done
	# the same package without the epoch is a downgrade: apt -y refuses it
	relabel "$deb" "$version" "$TMP/flashbench_${version}_noepoch.deb"
	got=$(upgrade_keeps "$TMP/flashbench_62-1+b1_standin.deb" "$TMP/flashbench_${version}_noepoch.deb")
	case $got in "apt failed:"*downgraded*) ;; *) bad="$bad version $version without the epoch was not refused: $got;" ;; esac
	[ -z "$bad" ] && pass "deb: apt keeps it over Debian's flashbench through apt upgrade (${#debs[@]} package$([ ${#debs[@]} = 1 ] || echo s) of 62-1+b1; $version without the epoch is refused as a downgrade)" ||
		fail "deb: apt keeps it over Debian's flashbench through apt upgrade" "$bad"
fi

lintian "$deb" > "$TMP/lintian" 2>&1
errors=$(grep -E '^E: ' "$TMP/lintian")
if [ -z "$errors" ] && ! grep -qiE '^(internal error|.*could not)' "$TMP/lintian"; then
	pass "deb: lintian reports no error"
else
	fail "deb: lintian reports no error" "$(echo "$errors" | head -5 | tr '\n' ' ')$(head -3 "$TMP/lintian")"
fi
