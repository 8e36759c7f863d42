#!/bin/sh
# A system under test that answers init (through the reference SUT, `$1 sut`) and then hangs
# without reading or answering anything: `kcspec drive` must report a timeout and kill it.
sed -u 1q | "$1" sut
exec sleep 100000
