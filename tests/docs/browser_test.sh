#!/usr/bin/env bash
# Builds the HTML site of the docs (`kcspec docs --html`) and renders every page in headless
# Chromium. A page passes when it loads (its document has the site's <main>), every image on it
# is loaded and decoded (complete, natural width > 0, its file exists), Chromium's console reports
# nothing for it, and every local link (<a href> without a scheme) resolves to a file or folder.
# Chromium missing is a failure, not a skip: scripts/setup installs it.
#
# Pages are loaded in batches, each batch as the frames of one harness page (the harness — not
# the site — has a script that reads each frame's document; --allow-file-access-from-files lets
# it), so Chromium starts a few times instead of once per page.
#
# usage: browser_test.sh KCSPEC DOCS_DIR WORK_DIR
set -uo pipefail
kcspec=$1
docs=$2
work=$3
batch_size=${KCSPEC_BROWSER_BATCH:-12}
parallel=${KCSPEC_BROWSER_JOBS:-3}

browser=""
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [[ -z $browser ]]; then
  echo "FAIL: chromium is not installed, so the HTML site cannot be checked in a browser." >&2
  echo "      Install it with ./scripts/setup (Debian package \`chromium\`)." >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work/home" "$work/harness" "$work/out"
if ! "$kcspec" docs --dir "$docs" --html --out "$work/site" >"$work/build.txt" 2>&1; then
  echo "FAIL: kcspec docs --html failed:" >&2
  cat "$work/build.txt" >&2
  exit 1
fi
site=$(cd "$work/site" && pwd)
mapfile -t pages < <(cd "$site" && find . -name '*.html' | sed 's|^\./||' | sort)
if ((${#pages[@]} == 0)); then
  echo "FAIL: the site has no page" >&2
  exit 1
fi

# One harness per batch: after every frame has loaded, it writes one line per frame.
batches=0
for ((i = 0; i < ${#pages[@]}; i += batch_size)); do
  {
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>harness</title></head><body><pre id="report">pending</pre>'
    for page in "${pages[@]:i:batch_size}"; do
      echo "<iframe data-page=\"$page\" src=\"file://$site/$page\" width=\"1200\" height=\"800\"></iframe>"
    done
    cat <<'SCRIPT'
<script>
window.addEventListener('load', () => {
  const mark = 'RE' + 'SULT';  // spelled apart so that the script's own text never matches
  const lines = [];
  for (const frame of document.querySelectorAll('iframe')) {
    const page = frame.dataset.page;
    let doc = null;
    try { doc = frame.contentDocument; } catch (e) { /* reported below */ }
    if (!doc || !doc.querySelector('main')) { lines.push(mark + ' ' + page + ' NOT-LOADED'); continue; }
    const bad = [...doc.images].filter(img => !img.complete || img.naturalWidth === 0).map(img => img.getAttribute('src'));
    lines.push(mark + ' ' + page + ' LOADED images=' + doc.images.length + (bad.length ? ' BROKEN ' + bad.join(' ') : ''));
  }
  document.getElementById('report').textContent = lines.join('\n') + '\n' + mark + '-END\n';
});
</script></body></html>
SCRIPT
  } >"$work/harness/batch$batches.html"
  batches=$((batches + 1))
done

load() {  # load N: batch N's DOM to out/N.html, Chromium's log to out/N.log
  HOME="$WORK/home" timeout 120 "$BROWSER" --headless --disable-gpu --no-sandbox --no-first-run \
    --allow-file-access-from-files --disable-extensions --disable-background-networking --disable-sync \
    --disable-component-update --user-data-dir="$WORK/profile$1" --enable-logging=stderr --v=0 --dump-dom \
    "file://$WORK/harness/batch$1.html" >"$WORK/out/$1.html" 2>"$WORK/out/$1.log"
  echo $? >"$WORK/out/$1.status"
}
export -f load
export WORK="$(cd "$work" && pwd)" BROWSER="$browser"
seq 0 $((batches - 1)) | xargs -P "$parallel" -I{} bash -c 'load "$1"' _ {}

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
for ((b = 0; b < batches; b++)); do
  status=$(cat "$work/out/$b.status" 2>/dev/null || echo "?")
  [[ $status == 0 ]] || fail "batch $b: chromium exited with status $status (log: $work/out/$b.log)"
  grep -q '^RESULT-END$' "$work/out/$b.html" 2>/dev/null || fail "batch $b: the harness did not finish (log: $work/out/$b.log)"
  while IFS= read -r line; do
    fail "console: $line"
  done < <(grep -a ':CONSOLE' "$work/out/$b.log" || true)
done
declare -A reported=()
while IFS= read -r line; do
  read -r _ page state rest <<<"$line"
  reported[$page]=1
  [[ $state == LOADED ]] || fail "$page: did not load"
  [[ $rest == *BROKEN* ]] && fail "$page: images not loaded: ${rest#*BROKEN }"
done < <(cat "$work"/out/*.html | grep -ao 'RESULT [^<]*' || true)

for page in "${pages[@]}"; do
  [[ -n ${reported[$page]:-} ]] || fail "$page: not rendered"
  dir=$(dirname "$site/$page")
  # The pages have no script, so their DOM is their file: images and local links resolve statically.
  while IFS= read -r src; do
    src=${src#<img src=\"}
    src=${src%\"}
    [[ -f "$dir/$src" ]] || fail "$page: missing image $src"
  done < <(grep -ao '<img src="[^"]*"' "$site/$page" || true)
  while IFS= read -r href; do
    href=${href#href=\"}
    href=${href%\"}
    target=${href%%#*}
    [[ -z $target || $target =~ ^[a-zA-Z][a-zA-Z0-9+.-]*: ]] && continue
    [[ -e "$dir/$target" ]] || fail "$page: broken link $href"
  done < <(grep -ao 'href="[^"]*"' "$site/$page" || true)
done

if ((failures > 0)); then
  echo "$failures problem(s) in ${#pages[@]} pages; the site is in $site" >&2
  exit 1
fi
echo "${#pages[@]} pages rendered in $browser ($batches batches): every page loaded, every image decoded, no console error, no broken local link"
