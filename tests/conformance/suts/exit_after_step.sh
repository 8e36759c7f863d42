#!/bin/sh
# A system under test that answers init and one step (through the reference SUT, `$1 sut`) and
# then exits with status 0 in the middle of the run: `kcspec drive` must report that it exited.
sed -u 2q | "$1" sut
