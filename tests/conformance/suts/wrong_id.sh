#!/bin/sh
# A system under test that answers init (through the reference SUT, `$1 sut`) and then answers
# every request with a well-formed step_ok carrying the wrong id: `kcspec drive` must report a
# protocol violation.
sed -u 1q | "$1" sut
while IFS= read -r line; do
  printf '{"type":"step_ok","id":999999,"observation":{}}\n'
done
