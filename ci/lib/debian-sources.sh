# shellcheck shell=bash
# ci/lib/debian-sources.sh: sourced by the cross-build stages (ci/test-windows,
# ci/test-musl, ci/test-macos). Fetches the Debian source packages of the four
# dependencies (APR, Jansson, CUnit, Nettle), applies the project's patches,
# and names what a stage's cache key needs. Needs root for apt-get.

spx_debian_sources=(apr jansson cunit nettle)
# Set by spx_debian_fetch: where each source package was unpacked.
# shellcheck disable=SC2034 # read by the stages that source this file
src_apr='' src_jansson='' src_cunit='' src_nettle=''

# apt-get source needs a deb-src entry: add one copied from the machine's
# Debian deb entries when there is none.
spx_have_deb_src() {
  grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list ||
    grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}

spx_add_deb_src() {
  spx_have_deb_src && return 0
  echo "== adding a deb-src entry (/etc/apt/sources.list.d/spx-deb-src.*)"
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -e "$file" ] || continue
    sed -n '/^Types:/,$p' "$file" | sed 's/^Types: *deb$/Types: deb-src/' \
      >>/etc/apt/sources.list.d/spx-deb-src.sources
    echo >>/etc/apt/sources.list.d/spx-deb-src.sources
  done
  if [ -e /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >/etc/apt/sources.list.d/spx-deb-src.list
  fi
  apt-get update -qq
}

spx_dsc_names() {
  apt-get source --print-uris -qq "${spx_debian_sources[@]}" 2>/dev/null |
    awk '{print $2}' | grep '\.dsc$'
}

# Prints the .dsc file names apt-get source would fetch, one per line (the
# versions a stage's cache is keyed by).
spx_debian_dscs() {
  spx_add_deb_src
  local dscs
  dscs=$(spx_dsc_names || true)
  if [ "$(echo "$dscs" | grep -c .)" -ne ${#spx_debian_sources[@]} ]; then
    apt-get update -qq
    dscs=$(spx_dsc_names)
  fi
  echo "$dscs"
}

# spx_debian_fetch DIR PATCHES: unpacks the four source packages into DIR,
# applies PATCHES/<package>*.patch to each, and sets src_apr, src_jansson,
# src_cunit and src_nettle to their folders.
spx_debian_fetch() {
  local dir=$1 patches=$2 package unpacked patch
  mkdir -p "$dir"
  (cd "$dir" && apt-get source -qq "${spx_debian_sources[@]}" >/dev/null 2>&1)
  for package in "${spx_debian_sources[@]}"; do
    unpacked=$(find "$dir" -maxdepth 1 -type d -name "$package-*" | head -1)
    for patch in "$patches/$package"*.patch; do
      [ -e "$patch" ] && patch -s -p1 -d "$unpacked" <"$patch"
    done
    printf -v "src_$package" '%s' "$unpacked"
  done
  # Debian's patches touch autotools inputs: make the generated files newer
  # again, so make does not try to run autoheader/automake (not installed).
  for unpacked in "$src_nettle" "$src_cunit"; do
    find "$unpacked" \( -name 'configure.ac' -o -name 'configure.in' -o -name 'aclocal.m4' \) \
      -exec touch -d '2000-01-01' {} +
  done
}

# spx_pc_relative PREFIX: rewrites the prefix of every .pc file under PREFIX
# relative to the file, and every other use of the absolute prefix (nettle's
# libdir, from an absolute --libdir) as ${prefix}, so a cache stays valid
# wherever the checkout is.
spx_pc_relative() {
  # shellcheck disable=SC2016 # ${pcfiledir} is pkg-config's, not the shell's
  sed -i -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' -e "s|$1|\${prefix}|g" \
    "$1"/lib/pkgconfig/*.pc
}
