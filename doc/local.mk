dist_man1_MANS += doc/infsim.1
