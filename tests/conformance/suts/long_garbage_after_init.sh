#!/bin/sh
# A system under test that answers init (through the reference SUT, `$1 sut`) and then answers
# every request with a 401-byte line that is not JSON: `kcspec drive` shows its first 300 bytes,
# escaped, then "… (401 bytes)" — the ellipsis itself, not its bytes escaped.
sed -u 1q | "$1" sut
long=$(printf '%0400d' 0 | tr 0 x)
while IFS= read -r line; do
  printf '%s\377\n' "$long"
done
