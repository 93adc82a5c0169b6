dist_man1_MANS += doc/infsim.1
EXTRA_DIST += doc/USAGE.md
