#!/bin/sh
# tests/jobs.sh 'MFLAGS' GOAL...: print the -j option that makes `make
# check` run its tests in parallel (Makefile.am's AM_MAKEFLAGS runs this
# for every sub-make), or nothing.
#
# Nothing unless a goal runs tests (check, recheck, check-soak), and
# nothing when make already has a say: -jN or -j on its command line, or
# a parent make's jobserver (a -jN forced on a sub-make under a jobserver
# turns the jobserver off, with a warning). Else -j twice the processors
# (most of a test's time is spent waiting on a local server, a child or
# a clock), or TEST_JOBS from the environment or make's command line:
# `make check TEST_JOBS=1` runs one test at a time.
flags=" $1 "
shift
case $flags in
*" -j"* | *" --jobserver"*) exit 0 ;;
esac
for goal; do
	case $goal in
	check | recheck | check-soak)
		n=${TEST_JOBS:-}
		if [ -z "$n" ]; then
			n=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || n=1
			n=$((n * 2))
		fi
		echo "-j$n"
		exit 0
		;;
	esac
done
