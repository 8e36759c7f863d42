#!/bin/sh
# A system under test that answers init (through the reference SUT, `$1 sut`) and then answers
# every request with a line that is not JSON (binary bytes included): `kcspec drive` must report
# malformed output.
sed -u 1q | "$1" sut
while IFS= read -r line; do
  printf 'garbage \377\376\001 {"type":\n'
done
